import { and, eq } from 'drizzle-orm';
import type { ReviewType } from '@portale/shared/reviews';
import { reviews } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

export interface ReviewSubmission {
  type: ReviewType;
  /** Teacher profile (`insegnanti`), institute (`adesioni`) or visit (`visite`). */
  subjectId: number;
  /** What exactly was submitted, when the subject has versions (the signature of an adhesion). */
  submissionId?: number | null;
  at: Date;
}

/**
 * Puts a subject in its review queue, in the caller's transaction. A subject has at most one pending
 * item: submitting again while one waits refreshes it (new submission, back of the queue).
 */
export async function submitForReview(db: DbOrTx, submission: ReviewSubmission): Promise<number> {
  const values = {
    submissionId: submission.submissionId ?? null,
    submittedAt: submission.at,
    claimedByUserId: null,
    claimedUntil: null,
  };
  const [updated] = await db
    .update(reviews)
    .set(values)
    .where(
      and(
        eq(reviews.type, submission.type),
        eq(reviews.subjectId, submission.subjectId),
        eq(reviews.state, 'in_attesa'),
      ),
    )
    .returning({ id: reviews.id });
  if (updated) return updated.id;
  const [inserted] = await db
    .insert(reviews)
    .values({ type: submission.type, subjectId: submission.subjectId, state: 'in_attesa', ...values })
    .returning({ id: reviews.id });
  return inserted!.id;
}
