import { and, desc, eq, or, type SQL } from 'drizzle-orm';
import type { AuditEntry, AuditedEntity } from '@portale/shared/registry';
import { auditLog, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import { countAll, paginate, rawCount, type Page } from '../../lib/list.ts';

export interface AuditQuery {
  entity: AuditedEntity;
  entityId: number;
  page: number;
  pageSize: number;
}

/** The rows about a record; for a user, also what that user did (product §4: "audit of a user's actions"). */
function whereOf(query: AuditQuery): SQL | undefined {
  const about = and(eq(auditLog.entity, query.entity), eq(auditLog.entityId, String(query.entityId)));
  return query.entity === 'user' ? or(about, eq(auditLog.actorUserId, query.entityId)) : about;
}

const asRecord = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/** The append-only audit of one record, newest first. */
export function listAudit(db: DbOrTx, query: AuditQuery): Promise<Page<AuditEntry>> {
  return paginate(
    async (limit, offset) => {
      const rows = await db
        .select({
          id: auditLog.id,
          at: auditLog.at,
          action: auditLog.action,
          entity: auditLog.entity,
          entityId: auditLog.entityId,
          before: auditLog.before,
          after: auditLog.after,
          ip: auditLog.ip,
          actorId: users.id,
          actorFirst: users.firstName,
          actorLast: users.lastName,
          actorEmail: users.email,
        })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.actorUserId))
        .where(whereOf(query))
        .orderBy(desc(auditLog.at), desc(auditLog.id))
        .limit(limit)
        .offset(offset);
      return rows.map((r) => ({
        id: r.id,
        at: r.at.toISOString(),
        action: r.action,
        actor: r.actorId === null ? null : { id: r.actorId, name: `${r.actorFirst} ${r.actorLast}`, email: r.actorEmail ?? '' },
        entity: r.entity,
        entityId: r.entityId,
        before: asRecord(r.before),
        after: asRecord(r.after),
        ip: r.ip,
      }));
    },
    () => rawCount(db, db.select({ n: countAll }).from(auditLog).where(whereOf(query))),
    query.page,
    query.pageSize,
  );
}
