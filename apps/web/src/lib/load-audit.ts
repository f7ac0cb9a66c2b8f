import { can } from '@portale/shared/auth';
import { listAudit, type AuditedEntity } from '@portale/shared/registry';
import { callApi } from './api-client.ts';
import { getSession } from './session.ts';

/** Rows of a record's audit a detail page shows (the newest). */
export const AUDIT_PAGE_SIZE = 25;

/** The newest audit rows of a record, for a user who may read the audit; `null` for anyone else (no call). */
export function loadAudit(entity: AuditedEntity, entityId: number, signal: AbortSignal) {
  if (!can(getSession().user, 'read:audit')) return Promise.resolve(null);
  return callApi(listAudit, { query: { entity, entityId, pageSize: AUDIT_PAGE_SIZE } }, { signal });
}
