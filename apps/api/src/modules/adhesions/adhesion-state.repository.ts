import { eq } from 'drizzle-orm';
import { ADHESION_STATE_LABELS, canTransitionAdhesion, type AdhesionState } from '@portale/shared/registry';
import { institutes, instituteAdhesionTransitions } from '../../db/schema/index.ts';
import type { Tx } from '../../db/transaction.ts';
import { auditWrite } from '../../lib/audit.ts';
import { HttpError } from '../../lib/http-error.ts';
import { clearInstituteTotals, clearSchoolSiteTotals } from '../registry/index.ts';

export interface AdhesionTransition {
  instituteId: number;
  to: AdhesionState;
  /** Only from these states (a narrower precondition than the state machine), e.g. signing accepts `iscritto` and `da_correggere`. */
  from?: readonly AdhesionState[];
  actorUserId: number | null;
  note?: string | null;
  ip?: string | null;
  at: Date;
}

/** The 409 of an illegal transition, with the Italian message the web shows as it is. */
export function illegalTransition(from: AdhesionState, to: AdhesionState): HttpError {
  return new HttpError(
    409,
    'adhesion_state_conflict',
    `L'istituto è nello stato «${ADHESION_STATE_LABELS[from]}» e non può passare a «${ADHESION_STATE_LABELS[to]}».`,
  );
}

/**
 * The one way an institute's adhesion state changes (product §5). Locks the institute row, checks the
 * state machine of `@portale/shared/registry`, updates the state, and records the dated transition and
 * its audit row, all in the caller's transaction. An illegal move is a 409; an unknown institute a 404.
 */
export async function transitionAdhesion(
  tx: Tx,
  change: AdhesionTransition,
): Promise<{ from: AdhesionState; to: AdhesionState }> {
  const [current] = await tx
    .select({ state: institutes.adhesionState })
    .from(institutes)
    .where(eq(institutes.id, change.instituteId))
    .for('update');
  if (!current) throw new HttpError(404, 'not_found', 'Istituto non trovato.');
  const from = current.state;
  if (!canTransitionAdhesion(from, change.to) || (change.from && !change.from.includes(from)))
    throw illegalTransition(from, change.to);
  await tx
    .update(institutes)
    .set({ adhesionState: change.to, adhesionStateChangedAt: change.at, updatedAt: change.at })
    .where(eq(institutes.id, change.instituteId));
  await tx.insert(instituteAdhesionTransitions).values({
    instituteId: change.instituteId,
    fromState: from,
    toState: change.to,
    actorUserId: change.actorUserId,
    note: change.note ?? null,
    at: change.at,
  });
  await auditWrite(
    tx,
    { userId: change.actorUserId, ip: change.ip ?? null, at: change.at },
    {
      action: 'institute.adhesion_state',
      entity: 'institute',
      entityId: change.instituteId,
      before: { adhesionState: from },
      after: { adhesionState: change.to, ...(change.note ? { note: change.note } : {}) },
    },
  );
  // The staff lists count institutes and plessi by adhesion state: their cached totals are stale now.
  clearInstituteTotals();
  clearSchoolSiteTotals();
  return { from, to: change.to };
}
