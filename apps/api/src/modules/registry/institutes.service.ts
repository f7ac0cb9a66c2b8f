import type { InstituteDetail, InstituteUpdate } from '@portale/shared/registry';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite, changedFields, type Actor } from '../../lib/audit.ts';
import * as repo from './institutes.repository.ts';

/**
 * Corrects an institute's contacts: only the fields that change are written and audited, in one
 * transaction (a save that changes nothing writes nothing). Returns the institute as it is now,
 * `undefined` when it does not exist.
 */
export async function updateInstitute(
  db: Db,
  actor: Actor,
  instituteId: number,
  changes: InstituteUpdate,
): Promise<InstituteDetail | undefined> {
  const found = await withTransaction(db, async (tx) => {
    const before = await repo.findInstituteContacts(tx, instituteId);
    if (!before) return false;
    const diff = changedFields(before, changes);
    if (Object.keys(diff.after).length === 0) return true;
    await repo.updateInstituteContacts(tx, instituteId, diff.after, actor.at);
    await auditWrite(tx, actor, {
      action: 'institute.updated',
      entity: 'institute',
      entityId: instituteId,
      ...diff,
    });
    return true;
  });
  return found ? repo.findInstitute(db, instituteId) : undefined;
}
