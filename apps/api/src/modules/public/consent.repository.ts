import type { ConsentRecordInput } from '@portale/shared/public';
import { consentRecords } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

/** Stores the proof of a cookie choice (never the IP); returns its id. */
export async function insertConsentRecord(
  db: DbOrTx,
  input: ConsentRecordInput,
  recordedAt: Date,
): Promise<number> {
  const [row] = await db
    .insert(consentRecords)
    .values({
      anonymousId: input.anonymousId,
      policyVersion: input.policyVersion,
      decision: input.decision,
      enabledIds: [...new Set(input.enabledIds)],
      decidedAt: new Date(input.decidedAt),
      recordedAt,
    })
    .returning({ id: consentRecords.id });
  return row!.id;
}
