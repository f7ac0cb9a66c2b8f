import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import * as repo from './substitutions-seed.repository.ts';

const DAY = 86_400_000;

/** The demo teachers of the demo first contact's institute (password: the demo accounts'). */
export const DEMO_SUBSTITUTION_TEACHERS = [
  { email: 'insegnante.sostituzioni-01@demo.test', firstName: 'Marta', lastName: 'Moretti', inSite: true },
  { email: 'insegnante.sostituzioni-02@demo.test', firstName: 'Pietro', lastName: 'Ferri', inSite: true },
  // Free for a new request (the e2e journey asks to replace her with the teacher below).
  { email: 'insegnante.sostituzioni-03@demo.test', firstName: 'Lucia', lastName: 'Villa', inSite: true },
  // A registered teacher without a plesso yet: the incoming teacher of that journey.
  { email: 'insegnante.sostituzioni-04@demo.test', firstName: 'Franco', lastName: 'Galli', inSite: false },
] as const;

function isoDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * Demo data of substitutions (issue 10), on a fresh start: teachers in the first plesso of the demo
 * first contact's institute (referente@demo.test), one request waiting for a decision (the incoming
 * teacher is an invited address) and one rejected by the Sylla staff with its note. Skipped when the
 * demo teachers are already there.
 */
export async function seedDemoSubstitutions(db: Db, now: Date = new Date()): Promise<void> {
  if (await repo.userIdByEmail(db, DEMO_SUBSTITUTION_TEACHERS[0].email)) return;
  const contact = await repo.demoFirstContact(db, 'referente@demo.test');
  if (!contact) return;
  const site = await repo.firstSiteOfInstitute(db, contact.instituteId);
  if (!site) return;
  const sylla = await repo.userIdByEmail(db, 'sylla@demo.test');

  await withTransaction(db, async (tx) => {
    const ids: number[] = [];
    for (const [i, teacher] of DEMO_SUBSTITUTION_TEACHERS.entries()) {
      const at = new Date(now.getTime() - (30 - i) * DAY);
      const id = await repo.insertDemoTeacher(tx, {
        ...teacher,
        passwordHash: contact.passwordHash,
        schoolSiteId: teacher.inSite ? site : null,
        at,
      });
      ids.push(id);
    }
    const requestedAt = new Date(now.getTime() - 3 * DAY);
    await repo.insertDemoSubstitution(tx, {
      schoolSiteId: site,
      outgoingUserId: ids[0]!,
      incomingEmail: 'giacomo.leone@demo.test',
      incomingName: 'Leone, Giacomo',
      reason:
        'Trasferimento della docente ad altro istituto dal mese prossimo: subentra il supplente annuale.',
      effectiveOn: isoDay(new Date(now.getTime() + 14 * DAY)),
      state: 'richiesta',
      requestedByUserId: contact.userId,
      createdAt: requestedAt,
      updatedAt: requestedAt,
    });
    const rejectedAt = new Date(now.getTime() - 8 * DAY);
    await repo.insertDemoSubstitution(tx, {
      schoolSiteId: site,
      outgoingUserId: ids[1]!,
      incomingEmail: 'elisa.fabbri@demo.test',
      incomingName: 'Fabbri, Elisa',
      reason: 'Congedo del docente per l’intero anno scolastico.',
      effectiveOn: isoDay(new Date(now.getTime() - 5 * DAY)),
      state: 'respinta',
      requestedByUserId: contact.userId,
      decidedByUserId: sylla ?? null,
      decisionNote: 'Manca il decreto di nomina della supplente: allegatelo e inviate una nuova richiesta.',
      decidedAt: new Date(rejectedAt.getTime() + 2 * DAY),
      createdAt: rejectedAt,
      updatedAt: new Date(rejectedAt.getTime() + 2 * DAY),
    });
  });
}
