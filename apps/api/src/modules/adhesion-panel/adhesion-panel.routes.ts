import type { FastifyInstance } from 'fastify';
import {
  exportAdhesions,
  getAdhesionFunnel,
  listAdhesions,
  previewAdhesionReminders,
  sendAdhesionReminders,
  withdrawAdhesion,
  type AdhesionPanelRow,
} from '@portale/shared/adhesions';
import { ADHESION_STATE_LABELS } from '@portale/shared/registry';
import { actorOf } from '../../lib/audit.ts';
import { registerEndpoint, type RequestWithParams } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { HttpError } from '../../lib/http-error.ts';
import { forEachBatch } from '../../lib/list.ts';
import * as repo from './adhesion-panel.repository.ts';
import * as service from './adhesion-panel.service.ts';

const person = (p: AdhesionPanelRow['principal']) => (p ? `${p.lastName} ${p.firstName} <${p.email}>` : null);
const EXPORT_COLUMNS: ExportColumn<AdhesionPanelRow>[] = [
  { header: 'Codice meccanografico', value: (r) => r.ministryCode },
  { header: 'Denominazione', value: (r) => r.name },
  { header: 'Comune', value: (r) => r.municipalityName },
  { header: 'Provincia', value: (r) => r.province },
  { header: 'Regione', value: (r) => r.region },
  { header: 'Stato adesione', value: (r) => ADHESION_STATE_LABELS[r.adhesionState] },
  {
    header: 'Nello stato dal',
    value: (r) => (r.adhesionStateChangedAt ? new Date(r.adhesionStateChangedAt) : null),
  },
  { header: 'Dirigente', value: (r) => person(r.principal) },
  { header: 'Referente', value: (r) => person(r.firstContact) },
  { header: 'Ultimo sollecito', value: (r) => r.lastReminderOn, type: 'date' },
];

function withdrawalOwners(request: RequestWithParams<{ instituteId: number }>) {
  const { instituteId } = request.params;
  return repo.findWithdrawalOwners(request.server.db, instituteId).then((owners) => {
    if (!owners) throw new HttpError(404, 'not_found', 'Istituto non trovato.');
    return owners;
  });
}

/** The adhesions panel (issue 9): funnel, list and export, reminders, withdrawal. */
export async function adhesionPanelRoutes(app: FastifyInstance) {
  registerEndpoint(app, getAdhesionFunnel, {}, (request) =>
    repo.funnel(app.db, request.query, app.clock.now()),
  );

  registerEndpoint(app, listAdhesions, {}, (request) =>
    repo.listPanel(app.db, request.query, app.clock.now()),
  );

  registerEndpoint(app, exportAdhesions, {}, async (request, reply) => {
    const { format, ...filters } = request.query;
    const now = app.clock.now();
    const total = await repo.countPanel(app.db, filters, now);
    return sendExport(reply, {
      format,
      name: 'adesioni',
      sheetName: 'Adesioni',
      columns: EXPORT_COLUMNS,
      total,
      today: now,
      produce: (write) => forEachBatch(app.db, repo.panelQuery(app.db, filters, now), repo.toPanelRow, write),
    });
  });

  registerEndpoint(app, previewAdhesionReminders, { anyOnly: true }, (request) => {
    const now = app.clock.now();
    return repo.previewReminders(app.db, request.query, now, service.romeDay(now));
  });

  registerEndpoint(app, sendAdhesionReminders, { anyOnly: true }, (request) =>
    service.sendReminders(app.db, app.env.publicWebUrl, actorOf(request), request.body),
  );

  registerEndpoint(app, withdrawAdhesion, { resource: withdrawalOwners }, async (request) => {
    await service.withdrawAdhesion(app.db, actorOf(request), request.params.instituteId, request.body.reason);
    return { adhesionState: 'ritirato' as const };
  });
}
