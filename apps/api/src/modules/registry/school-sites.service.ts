import type { SchoolSiteDetail, SchoolSiteUpdate } from '@portale/shared/registry';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite, changedFields, type Actor } from '../../lib/audit.ts';
import * as repo from './school-sites.repository.ts';

/**
 * Corrects a plesso: only the fields that change are written and audited, in one transaction (a
 * save that changes nothing writes nothing). Returns the plesso as it is now, `undefined` when it
 * does not exist.
 */
export async function updateSchoolSite(
  db: Db,
  actor: Actor,
  siteId: number,
  changes: SchoolSiteUpdate,
): Promise<SchoolSiteDetail | undefined> {
  const found = await withTransaction(db, async (tx) => {
    const before = await repo.findSchoolSiteEditable(tx, siteId);
    if (!before) return false;
    const diff = changedFields(before, changes);
    if (Object.keys(diff.after).length === 0) return true;
    await repo.updateSchoolSiteFields(tx, siteId, diff.after, actor.at);
    await auditWrite(tx, actor, {
      action: 'school-site.updated',
      entity: 'school-site',
      entityId: siteId,
      ...diff,
    });
    return true;
  });
  return found ? repo.findSchoolSite(db, siteId) : undefined;
}
