import type { FastifyInstance } from 'fastify';
import {
  ADHESION_STATE_LABELS,
  exportInstitutes,
  getInstitute,
  listInstitutes,
  updateInstitute,
  type InstituteSummary,
} from '@portale/shared/registry';
import { actorOf } from '../../lib/audit.ts';
import { registerEndpoint, type RequestWithParams } from '../../plugins/endpoint-route.ts';
import { heavyList } from '../../lib/gates.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { HttpError } from '../../lib/http-error.ts';
import { forEachBatch } from '../../lib/list.ts';
import * as service from './institutes.service.ts';
import * as repo from './institutes.repository.ts';

export const INSTITUTE_NOT_FOUND = 'Istituto non trovato.';

const EXPORT_COLUMNS: ExportColumn<InstituteSummary>[] = [
  { header: 'Codice meccanografico', value: (r) => r.ministryCode },
  { header: 'Denominazione', value: (r) => r.name },
  { header: 'Tipologia', value: (r) => r.type },
  { header: 'Statale', value: (r) => r.isStateSchool },
  { header: 'Comune', value: (r) => r.municipalityName },
  { header: 'Provincia', value: (r) => r.province },
  { header: 'Regione', value: (r) => r.region },
  { header: 'Plessi', value: (r) => r.schoolSiteCount },
  { header: 'Stato adesione', value: (r) => ADHESION_STATE_LABELS[r.adhesionState] },
  {
    header: 'Ultimo cambio di stato',
    value: (r) => (r.adhesionStateChangedAt ? new Date(r.adhesionStateChangedAt) : null),
  },
];

function instituteOf(request: RequestWithParams<{ instituteId: number }>) {
  const { instituteId } = request.params;
  return repo.findInstituteOwners(request.server.db, instituteId).then((owners) => {
    if (!owners) throw new HttpError(404, 'not_found', INSTITUTE_NOT_FOUND);
    return owners;
  });
}

/** The institutes of the national registry: list, export, detail and correction of contacts. */
export async function instituteRoutes(app: FastifyInstance) {
  // Through the list gate (issue 32): a flood of searches waits its turn or gets a 503, never health or login.
  registerEndpoint(app, listInstitutes, {}, (request) =>
    heavyList(app, { search: Boolean(request.query.q) }, (db) => repo.listInstitutes(db, request.query)),
  );

  registerEndpoint(app, exportInstitutes, {}, async (request, reply) => {
    const { format, ...filters } = request.query;
    const total = await repo.countInstitutes(app.db, filters);
    return sendExport(reply, {
      format,
      name: 'istituti',
      sheetName: 'Istituti',
      columns: EXPORT_COLUMNS,
      total,
      today: app.clock.now(),
      produce: (write) =>
        forEachBatch(app.db, repo.instituteListQuery(app.db, filters), repo.toInstituteSummary, write),
    });
  });

  registerEndpoint(app, getInstitute, { resource: instituteOf }, async (request) => {
    const institute = await repo.findInstitute(app.db, request.params.instituteId);
    if (!institute) throw new HttpError(404, 'not_found', INSTITUTE_NOT_FOUND);
    return institute;
  });

  registerEndpoint(app, updateInstitute, { resource: instituteOf }, async (request) => {
    const updated = await service.updateInstitute(
      app.db,
      actorOf(request),
      request.params.instituteId,
      request.body,
    );
    if (!updated) throw new HttpError(404, 'not_found', INSTITUTE_NOT_FOUND);
    return updated;
  });
}
