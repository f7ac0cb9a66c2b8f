import type { FastifyRequest } from 'fastify';
import type { DbOrTx } from '../db/transaction.ts';
import { auditLog } from '../db/schema/index.ts';

export interface AuditEntry {
  action: string;
  actorUserId?: number | null;
  entity?: string;
  entityId?: string | number;
  before?: unknown;
  after?: unknown;
  ip?: string;
}

/** Appends one row to the audit log (append-only: nothing updates or deletes it). */
export async function writeAudit(db: DbOrTx, entry: AuditEntry, at: Date): Promise<void> {
  await db.insert(auditLog).values({
    action: entry.action,
    actorUserId: entry.actorUserId ?? null,
    entity: entry.entity ?? null,
    entityId: entry.entityId === undefined ? null : String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
    ip: entry.ip ?? null,
    at,
  });
}

/** The fields whose value differs, as `{ before, after }` restricted to those fields. */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
): { before: Partial<T>; after: Partial<T> } {
  const b: Partial<T> = {};
  const a: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (after[key] === undefined || Object.is(before[key], after[key])) continue;
    b[key] = before[key];
    a[key] = after[key];
  }
  return { before: b, after: a };
}

/**
 * The one way a staff write is audited: actor and IP from the request, in the same transaction as
 * the write (`tx`), so the write and its audit row commit together or not at all.
 */
export function auditWrite(
  tx: DbOrTx,
  request: FastifyRequest,
  entry: Omit<AuditEntry, 'actorUserId' | 'ip'>,
): Promise<void> {
  return writeAudit(
    tx,
    { ...entry, actorUserId: request.auth?.user.id ?? null, ip: request.ip },
    request.server.clock.now(),
  );
}
