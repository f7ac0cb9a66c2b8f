import type { FastifyBaseLogger } from 'fastify';
import { romeToday } from '@portale/shared/substitutions';
import type { Db } from '../../db/client.ts';
import { withTransaction, type Tx } from '../../db/transaction.ts';
import { auditWrite } from '../../lib/audit.ts';
import type { Clock } from '../../lib/clock.ts';
import { PeriodicJob } from '../../lib/periodic-job.ts';
import * as repo from './substitutions.repository.ts';

/**
 * A substitution takes effect (decision 038): the incoming teacher placed in the plesso (a new approved
 * profile with the outgoing teacher's kind, or theirs moved) with the role of a participant, the
 * outgoing teacher's access codes of the plesso moved to them, and the outgoing teacher's profile out
 * of the plesso. Runs inside the caller's transaction, on the effective date (at approval when that
 * date has come, otherwise from the scheduled job).
 */
export async function applySubstitution(tx: Tx, row: repo.SubstitutionRow, now: Date) {
  const incomingUserId = row.incomingUserId!;
  const outgoingProfile = await repo.profileOf(tx, row.outgoingUserId);
  const incomingProfile = await repo.profileOf(tx, incomingUserId);
  const kind = incomingProfile?.kind ?? outgoingProfile?.kind ?? 'insegnante';
  await repo.placeTeacher(tx, incomingUserId, row.schoolSiteId, kind, now);
  await repo.grantRole(tx, incomingUserId, kind === 'educatore' ? 'educator' : 'teacher');
  const accessCodeIds = await repo.moveAccessCodes(tx, row.outgoingUserId, incomingUserId, row.schoolSiteId);
  await repo.removeFromSite(tx, row.outgoingUserId, row.schoolSiteId, now);
  await repo.markApplied(tx, row.id, now);
  return { accessCodeIds, incomingSiteBefore: incomingProfile?.schoolSiteId ?? null };
}

/**
 * Applies every approved substitution whose effective date (Europe/Rome) has come, each in its own
 * transaction, audited as `substitution.applied` with no actor (the system). Rows are locked with
 * SKIP LOCKED, so two instances running the job at once never apply one twice. Returns how many.
 */
export async function applyDueSubstitutions(db: Db, now: Date): Promise<number> {
  const today = romeToday(now);
  let applied = 0;
  for (;;) {
    const done = await withTransaction(db, async (tx) => {
      const [row] = await repo.lockDueSubstitutions(tx, today, 1);
      if (!row) return false;
      const effect = await applySubstitution(tx, row, now);
      // No actor: the system applies it.
      await auditWrite(
        tx,
        { userId: null, ip: null, at: now },
        {
          action: 'substitution.applied',
          entity: 'substitution',
          entityId: row.id,
          before: { outgoingSchoolSiteId: row.schoolSiteId, incomingSchoolSiteId: effect.incomingSiteBefore },
          after: {
            schoolSiteId: row.schoolSiteId,
            outgoingUserId: row.outgoingUserId,
            incomingUserId: row.incomingUserId,
            effectiveOn: row.effectiveOn,
            accessCodeIds: effect.accessCodeIds,
          },
        },
      );
      return true;
    });
    if (!done) return applied;
    applied += 1;
  }
}

/** Runs `applyDueSubstitutions` at start and every `intervalMs`, one run at a time; failures are logged. */
export class SubstitutionScheduler extends PeriodicJob<number> {
  constructor(db: Db, options: { intervalMs: number; clock: Clock; log: FastifyBaseLogger }) {
    super({
      intervalMs: options.intervalMs,
      runAtStart: true,
      log: options.log,
      run: () => applyDueSubstitutions(db, options.clock.now()),
      report: (applied, log) => {
        if (applied > 0) log.info({ applied }, 'substitutions took effect');
      },
      failure: 'applying due substitutions failed',
    });
  }
}
