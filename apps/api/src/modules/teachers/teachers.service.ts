import { HELD_RESPONSE_MESSAGES, type HeldResponseDecision } from '@portale/shared/teachers';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite, type Actor } from '../../lib/audit.ts';
import { HttpError } from '../../lib/http-error.ts';
import * as repo from './teachers.repository.ts';

export const TEACHER_NOT_FOUND = 'Insegnante non trovato.';

/**
 * Decision 029: the answers held since a teacher's rejection are counted again (`include`) or
 * discarded, in one transaction with its audit. 404 for an unknown teacher, 409 when nothing is held.
 * Returns how many answers the decision touched.
 */
export function settleHeldResponses(
  db: Db,
  actor: Actor,
  teacherId: number,
  decision: HeldResponseDecision,
): Promise<number> {
  return withTransaction(db, async (tx) => {
    const userId = await repo.teacherUserId(tx, teacherId);
    if (userId === undefined) throw new HttpError(404, 'not_found', TEACHER_NOT_FOUND);
    const n = await repo.decideHeldResponses(tx, userId, decision);
    if (n === 0) throw new HttpError(409, 'no_held_responses', HELD_RESPONSE_MESSAGES.nothingHeld);
    await auditWrite(tx, actor, {
      action: 'teacher.held-responses-decided',
      entity: 'teacher',
      entityId: teacherId,
      before: { hold: 'sospesa', count: n },
      after: { decision, count: n },
    });
    return n;
  });
}
