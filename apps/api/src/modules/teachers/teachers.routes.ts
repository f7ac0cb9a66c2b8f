import type { FastifyInstance } from 'fastify';
import { TEACHER_REVIEW_STATE_LABELS } from '@portale/shared/registry';
import {
  HELD_RESPONSE_MESSAGES,
  TEACHER_KIND_LABELS,
  decideTeacherHeldResponses,
  exportTeachers,
  getTeacher,
  listTeachers,
  type TeacherSummary,
} from '@portale/shared/teachers';
import { actorOf } from '../../lib/audit.ts';
import { registerEndpoint, type RequestWithParams } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { HttpError } from '../../lib/http-error.ts';
import { forEachBatch } from '../../lib/list.ts';
import * as repo from './teachers.repository.ts';
import { settleHeldResponses, TEACHER_NOT_FOUND } from './teachers.service.ts';

const EXPORT_COLUMNS: ExportColumn<TeacherSummary>[] = [
  { header: 'Cognome', value: (r) => r.lastName },
  { header: 'Nome', value: (r) => r.firstName },
  { header: 'E-mail', value: (r) => r.email },
  { header: 'Tipo', value: (r) => TEACHER_KIND_LABELS[r.kind] },
  { header: 'Stato revisione', value: (r) => TEACHER_REVIEW_STATE_LABELS[r.reviewState] },
  { header: 'Codice plesso', value: (r) => r.schoolSiteCode },
  { header: 'Plesso', value: (r) => r.schoolSiteName },
  { header: 'Comune', value: (r) => r.municipalityName },
  { header: 'Provincia', value: (r) => r.province },
  { header: 'Regione', value: (r) => r.region },
  { header: 'Istituto', value: (r) => r.instituteName },
  { header: 'E-mail verificata', value: (r) => r.emailVerified },
  { header: 'Telefono verificato', value: (r) => r.phoneVerified },
  { header: 'Registrato il', value: (r) => new Date(r.createdAt) },
];

function teacherOf(request: RequestWithParams<{ teacherId: number }>) {
  const { teacherId } = request.params;
  return repo.findTeacherResource(request.server.db, teacherId).then((resource) => {
    if (!resource) throw new HttpError(404, 'not_found', TEACHER_NOT_FOUND);
    return resource;
  });
}

/** Registered teachers and educators (product §4 `/portale/insegnanti`): list, export and detail. */
export async function teacherRoutes(app: FastifyInstance) {
  registerEndpoint(app, listTeachers, {}, (request) => repo.listTeachers(app.db, request.query));

  registerEndpoint(app, exportTeachers, {}, async (request, reply) => {
    const { format, ...filters } = request.query;
    const total = await repo.countTeachers(app.db, filters);
    return sendExport(reply, {
      format,
      name: 'insegnanti',
      sheetName: 'Insegnanti',
      columns: EXPORT_COLUMNS,
      total,
      today: app.clock.now(),
      produce: (write) =>
        forEachBatch(app.db, repo.teacherListQuery(app.db, filters), repo.toTeacherSummary, write),
    });
  });

  registerEndpoint(app, getTeacher, { resource: teacherOf }, async (request) => {
    const teacher = await repo.findTeacher(app.db, request.params.teacherId);
    if (!teacher) throw new HttpError(404, 'not_found', TEACHER_NOT_FOUND);
    return teacher;
  });

  // Decision 029: the answers held since a teacher's rejection are counted again or discarded by staff.
  registerEndpoint(app, decideTeacherHeldResponses, { resource: teacherOf }, async (request) => {
    const { teacherId } = request.params;
    const { decision } = request.body;
    const count = await settleHeldResponses(app.db, actorOf(request), teacherId, decision);
    return {
      decision,
      count,
      message:
        decision === 'include'
          ? HELD_RESPONSE_MESSAGES.included(count)
          : HELD_RESPONSE_MESSAGES.discarded(count),
    };
  });
}
