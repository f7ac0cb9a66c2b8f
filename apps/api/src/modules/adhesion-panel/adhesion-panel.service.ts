import type { ReminderFilters, ReminderResult } from '@portale/shared/adhesions';
import { ADHESION_STATE_LABELS, type AdhesionState } from '@portale/shared/registry';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite, type Actor } from '../../lib/audit.ts';
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

type Recipients = Awaited<ReturnType<typeof repo.reminderRecipients>>[number];

/** The institute's principal and first contact by e-mail (one message when they are the same person). */
function peopleOf(r: Recipients): Map<string, string> {
  const people = new Map<string, string>();
  if (r.principalEmail) people.set(r.principalEmail.toLowerCase(), r.principalFirstName ?? '');
  if (r.firstContactEmail && !people.has(r.firstContactEmail.toLowerCase()))
    people.set(r.firstContactEmail.toLowerCase(), r.firstContactFirstName ?? '');
  return people;
}

/**
 * A reminder to every institute the filters select that has a contact and was not reminded today
 * (Europe/Rome): the reminders recorded, one e-mail per person (principal and first contact) in the
 * outbox, and one audit row, in one transaction.
 */
export async function sendReminders(
  db: Db,
  webUrl: string,
  actor: Actor,
  filters: ReminderFilters,
): Promise<ReminderResult> {
  const now = actor.at;
  const day = romeDay(now);
  return withTransaction(db, async (tx) => {
    const before = await repo.previewReminders(tx, filters, now, day);
    const reminded = await repo.recordReminders(tx, filters, now, day, actor.userId);
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
            link: `${webUrl}/iscrizioni/adesione-formale`,
          },
        });
        messages += 1;
      }
    }
    await auditWrite(tx, actor, {
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
}

/**
 * An active adhesion withdrawn by staff with a reason (the state change audits itself), and the
 * institute's principal and first contact told by e-mail, in one transaction.
 */
export async function withdrawAdhesion(
  db: Db,
  actor: Actor,
  instituteId: number,
  reason: string,
): Promise<void> {
  const now = actor.at;
  await withTransaction(db, async (tx) => {
    await transitionAdhesion(tx, {
      instituteId,
      to: 'ritirato',
      from: ['attivo'],
      actorUserId: actor.userId,
      note: reason,
      ip: actor.ip,
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
}
