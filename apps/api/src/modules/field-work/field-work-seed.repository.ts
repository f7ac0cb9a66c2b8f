import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import { romeLocalToDate, dateToRomeLocal } from '@portale/shared/bookings';
import { detectorProfiles, schoolSites, users, visits } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import { submitForReview } from '../review-queue/index.ts';

export const DEMO_DETECTOR_EMAIL = 'rilevatore@demo.test';

/** A Rome wall-clock time `days` from `now` at `hour`:00. */
function romeAt(now: Date, days: number, hour: number): Date {
  const day = dateToRomeLocal(new Date(now.getTime() + days * 86_400_000)).slice(0, 10);
  return romeLocalToDate(`${day}T${String(hour).padStart(2, '0')}:00`)!;
}

/**
 * Demo field work (product §7): the demo detector covers RM and PV and holds some participating plessi
 * of those provinces (any plessi there when none participates yet), with visits in every state: one
 * planned, one held yesterday and still to report, one reported and waiting for review, one cancelled, one missed. Runs once: a detector who
 * already has a profile is left as they are.
 */
export async function seedDemoFieldWork(db: DbOrTx, now: Date): Promise<{ sites: number; visits: number }> {
  const [detector] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, DEMO_DETECTOR_EMAIL));
  if (!detector) return { sites: 0, visits: 0 };
  const inserted = await db
    .insert(detectorProfiles)
    .values({ userId: detector.id, provinces: ['PV', 'RM'], active: true, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning({ userId: detectorProfiles.userId });
  if (inserted.length === 0) return { sites: 0, visits: 0 };

  const free = and(inArray(schoolSites.province, ['RM', 'PV']), isNull(schoolSites.detectorUserId));
  let picked = await db
    .select({ id: schoolSites.id })
    .from(schoolSites)
    .where(and(free, eq(schoolSites.participating, true)))
    .orderBy(asc(schoolSites.province), asc(schoolSites.name), asc(schoolSites.id))
    .limit(6);
  if (picked.length < 4) {
    const more = await db
      .select({ id: schoolSites.id })
      .from(schoolSites)
      .where(free)
      .orderBy(
        desc(schoolSites.participating),
        asc(schoolSites.province),
        asc(schoolSites.name),
        asc(schoolSites.id),
      )
      .limit(6);
    picked = [...new Map([...picked, ...more].map((s) => [s.id, s])).values()].slice(0, 6);
  }
  if (picked.length === 0) return { sites: 0, visits: 0 };
  await db
    .update(schoolSites)
    .set({ detectorUserId: detector.id, updatedAt: now })
    .where(
      inArray(
        schoolSites.id,
        picked.map((s) => s.id),
      ),
    );

  const siteAt = (i: number) => picked[i % picked.length]!.id;
  const base = { detectorUserId: detector.id, createdAt: now, updatedAt: now };
  const rows = await db
    .insert(visits)
    .values([
      { ...base, schoolSiteId: siteAt(0), scheduledAt: romeAt(now, 3, 10), state: 'pianificata' as const },
      // Held yesterday, its report still to file.
      { ...base, schoolSiteId: siteAt(4), scheduledAt: romeAt(now, -1, 10), state: 'pianificata' as const },
      {
        ...base,
        schoolSiteId: siteAt(1),
        scheduledAt: romeAt(now, -4, 9),
        state: 'svolta' as const,
        report:
          'Visita svolta regolarmente: incontrati il referente e due docenti, verificati gli spazi per la rilevazione. Nessuna criticità.',
        reviewState: 'in_attesa' as const,
        reportedAt: romeAt(now, -3, 16),
      },
      {
        ...base,
        schoolSiteId: siteAt(2),
        scheduledAt: romeAt(now, -10, 11),
        state: 'annullata' as const,
        outcomeNote: 'Plesso chiuso per elezioni.',
      },
      {
        ...base,
        schoolSiteId: siteAt(3),
        scheduledAt: romeAt(now, -7, 9),
        state: 'mancata' as const,
        outcomeNote: 'Nessuno presente all’orario concordato.',
      },
    ])
    .returning({ id: visits.id, state: visits.state, reportedAt: visits.reportedAt });
  for (const row of rows)
    if (row.state === 'svolta')
      await submitForReview(db, { type: 'visite', subjectId: row.id, at: row.reportedAt! });
  return { sites: picked.length, visits: rows.length };
}
