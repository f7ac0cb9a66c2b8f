import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { ExportFormatSchema } from '../lists/list-query.ts';
import { IdParamSchema } from '../validation/index.ts';
import {
  HeldResponsesDecidedSchema,
  HeldResponsesDecisionSchema,
  TeacherDetailSchema,
  TeacherFiltersSchema,
  TeacherListQuerySchema,
  TeacherListResponseSchema,
} from './teachers.schemas.ts';

const TeacherParams = z.object({ teacherId: IdParamSchema });

export const listTeachers = defineEndpoint({
  method: 'GET',
  path: '/api/teachers',
  permission: 'read:teacher',
  tag: 'teachers',
  summary: 'Insegnanti ed educatori registrati: ricerca, filtri, ordinamento e pagine',
  query: TeacherListQuerySchema,
  response: TeacherListResponseSchema,
});

export const exportTeachers = defineEndpoint({
  method: 'GET',
  path: '/api/teachers/export',
  permission: 'export:teacher',
  tag: 'teachers',
  summary: 'Esporta gli insegnanti filtrati (CSV o XLSX)',
  query: TeacherFiltersSchema.extend(ExportFormatSchema.shape),
  response: z.string(),
  download: true,
});

export const getTeacher = defineEndpoint({
  method: 'GET',
  path: '/api/teachers/:teacherId',
  permission: 'read:teacher',
  tag: 'teachers',
  summary: "Scheda dell'insegnante: profilo, plesso e istituto, recapiti verificati e stato della revisione",
  params: TeacherParams,
  response: TeacherDetailSchema,
});

/**
 * A rejected teacher's held answers (decision 029): the answers collected through their codes (and
 * their own) are out of the published results from the rejection until staff count them again or
 * discard them. Staff who decide reviews decide this too; 409 when nothing is held.
 */
export const decideTeacherHeldResponses = defineEndpoint({
  method: 'POST',
  path: '/api/teachers/:teacherId/held-responses',
  permission: 'decide:review',
  tag: 'teachers',
  summary:
    'Decide sulle risposte sospese di un insegnante respinto: conteggiarle di nuovo nei risultati o scartarle',
  params: TeacherParams,
  body: HeldResponsesDecisionSchema,
  response: HeldResponsesDecidedSchema,
});
