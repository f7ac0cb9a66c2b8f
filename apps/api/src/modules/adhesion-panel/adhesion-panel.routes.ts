import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  exportAdhesions,
  getAdhesionFunnel,
  listAdhesions,
  previewAdhesionReminders,
  sendAdhesionReminders,
  withdrawAdhesion,
  type AdhesionPanelRow,
  type ReminderResult,
} from '@portale/shared/adhesions';
import { ADHESION_STATE_LABELS, type AdhesionState } from '@portale/shared/registry';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite } from '../../lib/audit.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { HttpError } from '../../lib/http-error.ts';
import { forEachBatch } from '../../lib/list.ts';
import { formatRomeDateTime } from '../../lib/format.ts';
import { transitionAdhesion } from '../adhesions/index.ts';
import { enqueueMessage } from '../messages/index.ts';
import * as repo from './adhesion-panel.repository.ts';

const ROME_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Rome',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const ROME_DATE = new Intl.DateTimeFormat('it-IT', {
  timeZone: 'Europe/Rome',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

/** The Europe/Rome calendar day of `at` as YYYY-MM-DD: reminders are "once a day" in Italian time. */
export function romeDay(at: Date): string {
  return ROME_DAY.format(at);
}

const NEXT_STEP: Partial<Record<AdhesionState, string>> = {
  iscritto:
    'Per completare l’adesione il dirigente scolastico deve firmare il documento di adesione formale, online con un codice SMS o caricandolo firmato digitalmente.',
  da_correggere:
    'Lo staff del programma ha chiesto alcune correzioni all’adesione: leggete la nota nella pagina dell’adesione, correggete e firmate di nuovo il documento.',
};

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

type Recipients = Awaited<ReturnType<typeof repo.reminderRecipients>>[number];

/** The institute's principal and first contact by e-mail (one message when they are the same person). */
function peopleOf(r: Recipients): Map<string, string> {
  const people = new Map<string, string>();
  if (r.principalEmail) people.set(r.principalEmail.toLowerCase(), r.principalFirstName ?? '');
  if (r.firstContactEmail && !people.has(r.firstContactEmail.toLowerCase()))
    people.set(r.firstContactEmail.toLowerCase(), r.firstContactFirstName ?? '');
  return people;
}

function withdrawalOwners(request: FastifyRequest) {
  const { instituteId } = request.params as { instituteId: number };
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
    return repo.previewReminders(app.db, request.query, now, romeDay(now));
  });

  registerEndpoint(
    app,
    sendAdhesionReminders,
    { anyOnly: true },
    async (request): Promise<ReminderResult> => {
      const now = app.clock.now();
      const day = romeDay(now);
      const filters = request.body;
      return withTransaction(app.db, async (tx) => {
        const before = await repo.previewReminders(tx, filters, now, day);
        const reminded = await repo.recordReminders(tx, filters, now, day, request.auth?.user.id ?? null);
        const recipients = await repo.reminderRecipients(tx, reminded);
        let messages = 0;
        for (const r of recipients) {
          for (const [email, firstName] of peopleOf(r)) {
            await enqueueMessage(tx, {
              templateKey: 'email.sollecito-adesione',
              recipient: email,
              now,
              data: {
                firstName,
                instituteName: r.instituteName,
                ministryCode: r.ministryCode,
                stateLabel: ADHESION_STATE_LABELS[r.adhesionState],
                since: ROME_DATE.format(now),
                nextStep: NEXT_STEP[r.adhesionState] ?? '',
                link: `${app.env.publicWebUrl}/iscrizioni/adesione-formale`,
              },
            });
            messages += 1;
          }
        }
        await auditWrite(tx, request, {
          action: 'adhesion.reminders_sent',
          entity: 'institute',
          after: { filters, institutes: reminded.length, messages },
        });
        return {
          institutes: reminded.length,
          messages,
          remindedToday: before.remindedToday + (before.eligible - reminded.length),
          withoutContacts: before.withoutContacts,
        };
      });
    },
  );

  registerEndpoint(app, withdrawAdhesion, { resource: withdrawalOwners }, async (request) => {
    const { instituteId } = request.params;
    const now = app.clock.now();
    const { reason } = request.body;
    await withTransaction(app.db, async (tx) => {
      await transitionAdhesion(tx, {
        instituteId,
        to: 'ritirato',
        from: ['attivo'],
        actorUserId: request.auth?.user.id ?? null,
        note: reason,
        ip: request.ip,
        at: now,
      });
      const [r] = await repo.reminderRecipients(tx, [instituteId]);
      if (!r) return;
      for (const [email, firstName] of peopleOf(r)) {
        await enqueueMessage(tx, {
          templateKey: 'email.adesione-ritirata',
          recipient: email,
          now,
          data: {
            firstName,
            instituteName: r.instituteName,
            ministryCode: r.ministryCode,
            when: formatRomeDateTime(now),
            reason,
          },
        });
      }
    });
    return { adhesionState: 'ritirato' as const };
  });
}
