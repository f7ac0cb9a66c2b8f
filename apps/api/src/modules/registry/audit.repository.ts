import { sql, type SQL } from 'drizzle-orm';
import type { AuditEntry, AuditedEntity } from '@portale/shared/registry';
import { auditLog, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import {
  asValue,
  listRows,
  paginate,
  rowValue,
  shapedCappedCount,
  type Bind,
  type Page,
} from '../../lib/list.ts';

export interface AuditQuery {
  entity: AuditedEntity;
  entityId: number;
  page: number;
  pageSize: number;
  exactTotal?: boolean;
}

/**
 * The rows about a record; for a user, also what that user did (product §4: "audit of a user's
 * actions"). Each branch is one access path of the audit, read newest first from its own index
 * (`audit_log_entity_idx`, `audit_log_actor_idx`; decision 033): an OR of the two made PostgreSQL read
 * and sort every row of an active staff user to show twenty. The second branch leaves out the rows the
 * first already has (a user acting on their own record), so no row appears twice.
 */
function branchesOf(query: AuditQuery, bind: Bind = asValue): SQL[] {
  const id = String(query.entityId);
  const about = sql`${auditLog.entity} = ${bind(query.entity)} and ${auditLog.entityId} = ${bind(id)}`;
  if (query.entity !== 'user') return [about];
  return [
    about,
    sql`${auditLog.actorUserId} = ${bind(query.entityId)} and (${auditLog.entity} is distinct from 'user' or ${auditLog.entityId} is distinct from ${bind(id)})`,
  ];
}

/**
 * The statements' shape (decision 028; for the audit 059): a user's audit has two branches, any other
 * record's one; every value is bound, so the text is kept per shape.
 */
const shapeOf = (query: AuditQuery) => (query.entity === 'user' ? 'audit-user' : 'audit-record');

const asRecord = (v: unknown) => {
  const value = typeof v === 'string' ? (JSON.parse(v) as unknown) : v;
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
};

/** The append-only audit of one record, newest first. */
export function listAudit(db: DbOrTx, query: AuditQuery): Promise<Page<AuditEntry>> {
  return paginate(
    async (limit, offset) => {
      const rows = await listRows(db, shapeOf(query), (bind) => {
        // Each branch gives at most the rows up to the end of the page, in the page's order.
        const upTo = bind(limit + offset);
        const newest = branchesOf(query, bind).map(
          (where) =>
            sql`(select ${auditLog.id}, ${auditLog.at}, ${auditLog.action}, ${auditLog.entity}, ${auditLog.entityId}, ${auditLog.before}, ${auditLog.after}, ${auditLog.ip}, ${auditLog.actorUserId}
                 from ${auditLog} where ${where} order by ${auditLog.at} desc, ${auditLog.id} desc limit ${upTo})`,
        );
        return sql`select a.id, a.at, a.action, a.entity, a.entity_id, a.before, a.after, a.ip, u.id as actor_id, u.first_name, u.last_name, u.email
              from (${sql.join(newest, sql` union all `)}) a left join ${users} u on u.id = a.actor_user_id
              order by a.at desc, a.id desc limit ${bind(limit)} offset ${bind(offset)}`;
      });
      return rows.map((r) => ({
        id: rowValue.int(r.id),
        at: rowValue.iso(r.at)!,
        action: rowValue.text(r.action),
        actor:
          r.actor_id === null || r.actor_id === undefined
            ? null
            : {
                id: rowValue.int(r.actor_id),
                name: `${rowValue.text(r.first_name)} ${rowValue.text(r.last_name)}`,
                email: rowValue.text(r.email),
              },
        entity: rowValue.textOrNull(r.entity),
        entityId: rowValue.textOrNull(r.entity_id),
        before: asRecord(r.before),
        after: asRecord(r.after),
        ip: rowValue.textOrNull(r.ip),
      }));
    },
    () =>
      shapedCappedCount(
        db,
        `${shapeOf(query)}-total`,
        (bind) =>
          sql`${sql.join(
            branchesOf(query, bind).map((where) => sql`(select 1 from ${auditLog} where ${where})`),
            sql` union all `,
          )}`,
        query.exactTotal,
      ),
    query.page,
    query.pageSize,
  );
}
