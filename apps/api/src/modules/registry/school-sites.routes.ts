import type { FastifyInstance } from 'fastify';
import {
  ADHESION_STATE_LABELS,
  SCHOOL_LEVEL_LABELS,
  exportSchoolSites,
  getSchoolSite,
  listSchoolSites,
  updateSchoolSite,
  type SchoolSiteSummary,
} from '@portale/shared/registry';
import { actorOf } from '../../lib/audit.ts';
import { registerEndpoint, type RequestWithParams } from '../../plugins/endpoint-route.ts';
import { heavyList } from '../../lib/gates.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { HttpError } from '../../lib/http-error.ts';
import { forEachBatch } from '../../lib/list.ts';
import * as service from './school-sites.service.ts';
import * as repo from './school-sites.repository.ts';

export const SCHOOL_SITE_NOT_FOUND = 'Plesso non trovato.';

const EXPORT_COLUMNS: ExportColumn<SchoolSiteSummary>[] = [
  { header: 'Codice meccanografico', value: (r) => r.ministryCode },
  { header: 'Denominazione', value: (r) => r.name },
  { header: 'Grado', value: (r) => SCHOOL_LEVEL_LABELS[r.schoolLevel] },
  { header: 'Tipologia', value: (r) => r.typeLabel },
  { header: 'Comune', value: (r) => r.municipalityName },
  { header: 'Provincia', value: (r) => r.province },
  { header: 'Regione', value: (r) => r.region },
  { header: 'Codice istituto', value: (r) => r.instituteCode },
  { header: 'Istituto', value: (r) => r.instituteName },
  { header: 'Statale', value: (r) => r.isStateSchool },
  { header: 'Partecipa', value: (r) => r.participating },
  { header: 'Stato adesione istituto', value: (r) => ADHESION_STATE_LABELS[r.adhesionState] },
];

function schoolSiteOf(request: RequestWithParams<{ siteId: number }>) {
  const { siteId } = request.params;
  return repo.findSchoolSiteOwners(request.server.db, siteId).then((owners) => {
    if (!owners) throw new HttpError(404, 'not_found', SCHOOL_SITE_NOT_FOUND);
    return owners;
  });
}

/** The plessi of the national registry: list, export, detail and corrections. */
export async function schoolSiteRoutes(app: FastifyInstance) {
  // Through the list gate (issue 32): a flood of searches waits its turn or gets a 503, never health or login.
  registerEndpoint(app, listSchoolSites, {}, (request) =>
    heavyList(app, { search: Boolean(request.query.q) }, (db) => repo.listSchoolSites(db, request.query)),
  );

  registerEndpoint(app, exportSchoolSites, {}, async (request, reply) => {
    const { format, ...filters } = request.query;
    const total = await repo.countSchoolSites(app.db, filters);
    return sendExport(reply, {
      format,
      name: 'plessi',
      sheetName: 'Plessi',
      columns: EXPORT_COLUMNS,
      total,
      today: app.clock.now(),
      produce: (write) =>
        forEachBatch(app.db, repo.schoolSiteListQuery(app.db, filters), repo.toSchoolSiteSummary, write),
    });
  });

  registerEndpoint(app, getSchoolSite, { resource: schoolSiteOf }, async (request) => {
    const site = await repo.findSchoolSite(app.db, request.params.siteId);
    if (!site) throw new HttpError(404, 'not_found', SCHOOL_SITE_NOT_FOUND);
    return site;
  });

  registerEndpoint(app, updateSchoolSite, { resource: schoolSiteOf }, async (request) => {
    const updated = await service.updateSchoolSite(
      app.db,
      actorOf(request),
      request.params.siteId,
      request.body,
    );
    if (!updated) throw new HttpError(404, 'not_found', SCHOOL_SITE_NOT_FOUND);
    return updated;
  });
}
