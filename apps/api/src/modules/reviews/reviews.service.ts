import {
  isCorrectableField,
  REVIEW_DECISION_STATE,
  type ReviewDecision,
  type ReviewDetail,
  type ReviewField,
  type ReviewState,
  type ReviewType,
} from '@portale/shared/reviews';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite, type Actor } from '../../lib/audit.ts';
import { DECISION_HANDLERS } from './review-decisions.ts';
import { findReview } from './review-content.ts';
import * as repo from './reviews.repository.ts';

export interface ReviewDecisionInput {
  type: ReviewType;
  itemId: number;
  decision: ReviewDecision;
  note?: string | null | undefined;
  /** With "Chiedi correzioni": the fields to correct (empty otherwise). */
  fields: ReviewField[];
}

/** A reviewer: always a signed-in user. */
export type Reviewer = Actor & { userId: number };

export type ReviewDecisionOutcome =
  | { kind: 'decided'; item: ReviewDetail; nextItemId: number | null }
  /** Another reviewer was first: the item as it stands and where to go on. */
  | {
      kind: 'already-decided';
      current: { state: ReviewState; decidedAt: Date | null; decidedBy: string | null };
      nextItemId: number | null;
    }
  | { kind: 'not-found' }
  /** A field to correct that the queue's subject does not have. */
  | { kind: 'field-not-in-queue' };

/**
 * A reviewer's decision on an item of a queue: the decision, its effect on the subject (state, codes,
 * e-mails: `review-decisions.ts`) and its audit row commit together, only while the item still waits.
 */
export async function decideReview(
  deps: { db: Db; webUrl: string },
  reviewer: Reviewer,
  input: ReviewDecisionInput,
): Promise<ReviewDecisionOutcome> {
  const { db } = deps;
  const { type, itemId, decision, fields } = input;
  const note = input.note ?? null;
  const handler = DECISION_HANDLERS[type];
  if (!handler) return { kind: 'not-found' };
  if (fields.some((field) => !isCorrectableField(type, field))) return { kind: 'field-not-in-queue' };
  const state = REVIEW_DECISION_STATE[decision];
  const now = reviewer.at;
  const decided = await withTransaction(db, async (tx) => {
    const row = await repo.recordDecision(tx, {
      type,
      itemId,
      state,
      note,
      fields,
      userId: reviewer.userId,
      now,
    });
    if (!row) return false;
    await handler(tx, {
      subjectId: row.subjectId,
      submissionId: row.submissionId,
      decision,
      note,
      fields,
      actor: reviewer,
      webUrl: deps.webUrl,
    });
    await auditWrite(tx, reviewer, {
      action: 'review.decided',
      entity: 'review',
      entityId: itemId,
      before: { state: 'in_attesa' },
      after: {
        type,
        subjectId: row.subjectId,
        decision,
        state,
        ...(note ? { note } : {}),
        ...(fields.length > 0 ? { fields } : {}),
      },
    });
    return true;
  });
  if (!decided) {
    const current = await repo.findReviewState(db, type, itemId);
    if (!current) return { kind: 'not-found' };
    return {
      kind: 'already-decided',
      current: { state: current.state, decidedAt: current.decidedAt, decidedBy: current.decidedBy ?? null },
      nextItemId: await repo.peekNext(db, type, reviewer.userId, now),
    };
  }
  const item = await findReview(db, type, itemId, now);
  return { kind: 'decided', item: item!, nextItemId: await repo.peekNext(db, type, reviewer.userId, now) };
}
