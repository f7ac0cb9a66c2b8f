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
async function writeAudit(db: DbOrTx, entry: AuditEntry, at: Date): Promise<void> {
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
 * Who does a write and when: the signed-in user (or nobody), the client's address and the request's
 * moment. Routes build it with `actorOf(request)` and hand it to their service, so services never
 * see a `FastifyRequest` (decision 049).
 */
export interface Actor {
  userId: number | null;
  ip: string | null;
  at: Date;
}

/** The actor of a write that needs a session: a user, from an address (decision 049). */
export interface SignedInActor extends Actor {
  userId: number;
  ip: string;
}

/** The actor of a request: its session's user, its address, the app clock's now. */
export function actorOf(request: FastifyRequest): Actor {
  return { userId: request.auth?.user.id ?? null, ip: request.ip, at: request.server.clock.now() };
}

/**
 * The one way a write is audited, in the same transaction as the write (`tx`), so the write and its
 * audit row commit together or not at all (outside a transaction, `tx` is the database: a refused
 * login, a revoked session). `actor` says who and when; `entry` says what (decision 049).
 */
export function auditWrite(
  tx: DbOrTx,
  actor: Actor,
  entry: Omit<AuditEntry, 'actorUserId' | 'ip'>,
): Promise<void> {
  return writeAudit(tx, { ...entry, actorUserId: actor.userId, ip: actor.ip ?? undefined }, actor.at);
}
