import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { ExportFormatSchema } from '../lists/list-query.ts';
import { IdParamSchema } from '../validation/index.ts';
import { TeacherDetailSchema, TeacherFiltersSchema, TeacherListQuerySchema, TeacherListResponseSchema } from './teachers.schemas.ts';

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
