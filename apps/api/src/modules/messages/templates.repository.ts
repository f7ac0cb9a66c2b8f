import { and, desc, eq, sql } from 'drizzle-orm';
import { normaliseSearch, searchWords } from '@portale/shared/lists';
import type { TemplateFilters, TemplateSummary, TemplateVersion } from '@portale/shared/templates';
import type { DbOrTx } from '../../db/transaction.ts';
import { messageTemplates, users } from '../../db/schema/index.ts';
import type { Page } from '../../lib/list.ts';

const authorName = sql<
  string | null
>`case when ${users.id} is null then null else ${users.firstName} || ' ' || ${users.lastName} end`;

const versionFields = {
  key: messageTemplates.key,
  channel: messageTemplates.channel,
  subject: messageTemplates.subject,
  htmlBody: messageTemplates.htmlBody,
  textBody: messageTemplates.textBody,
  version: messageTemplates.version,
  restoredFromVersion: messageTemplates.restoredFromVersion,
  createdAt: messageTemplates.createdAt,
  createdBy: authorName,
};

export type TemplateRow = {
  key: string;
  channel: 'email' | 'sms' | 'pdf';
  subject: string | null;
  htmlBody: string | null;
  textBody: string;
  version: number;
  restoredFromVersion: number | null;
  createdAt: Date;
  createdBy: string | null;
};

export function toSummary(row: TemplateRow): TemplateSummary {
  return {
    key: row.key,
    channel: row.channel,
    subject: row.subject,
    version: row.version,
    updatedAt: row.createdAt.toISOString(),
    updatedBy: row.createdBy,
  };
}

export function toVersion(row: TemplateRow): TemplateVersion {
  return {
    version: row.version,
    subject: row.subject,
    textBody: row.textBody,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    restoredFromVersion: row.restoredFromVersion,
  };
}

/** The version in use of every key (the highest), with its author. */
async function currentVersions(db: DbOrTx): Promise<TemplateRow[]> {
  return db
    .selectDistinctOn([messageTemplates.key], versionFields)
    .from(messageTemplates)
    .leftJoin(users, eq(users.id, messageTemplates.createdByUserId))
    .orderBy(messageTemplates.key, desc(messageTemplates.version));
}

const SORTS: Record<string, (a: TemplateRow, b: TemplateRow) => number> = {
  key: (a, b) => a.key.localeCompare(b.key),
  channel: (a, b) => a.channel.localeCompare(b.channel) || a.key.localeCompare(b.key),
  version: (a, b) => a.version - b.version || a.key.localeCompare(b.key),
  updatedAt: (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.key.localeCompare(b.key),
};

/**
 * The filtered, sorted templates. There is one row per key (a few dozen, bounded by the code's
 * defaults), so the versions in use are read in one query and filtered and sorted here.
 */
export async function filteredTemplates(
  db: DbOrTx,
  filters: Partial<TemplateFilters>,
): Promise<TemplateRow[]> {
  const words = searchWords(filters.q);
  const rows = (await currentVersions(db)).filter(
    (r) =>
      (!filters.channel || r.channel === filters.channel) &&
      words.every((w) => normaliseSearch(`${r.key} ${r.subject ?? ''} ${r.textBody}`).includes(w)),
  );
  const sort = filters.sort ?? { column: 'key', direction: 'asc' as const };
  const compare = SORTS[sort.column]!;
  return rows.sort((a, b) => (sort.direction === 'desc' ? compare(b, a) : compare(a, b)));
}

export async function listTemplates(
  db: DbOrTx,
  query: TemplateFilters & { page: number; pageSize: number },
): Promise<Page<TemplateSummary>> {
  const rows = await filteredTemplates(db, query);
  const start = (query.page - 1) * query.pageSize;
  return {
    items: rows.slice(start, start + query.pageSize).map(toSummary),
    total: rows.length,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** The version in use of a key (`undefined`: no such key). */
export async function findCurrent(db: DbOrTx, key: string): Promise<TemplateRow | undefined> {
  const [row] = await db
    .select(versionFields)
    .from(messageTemplates)
    .leftJoin(users, eq(users.id, messageTemplates.createdByUserId))
    .where(eq(messageTemplates.key, key))
    .orderBy(desc(messageTemplates.version))
    .limit(1);
  return row;
}

export async function findVersion(
  db: DbOrTx,
  key: string,
  version: number,
): Promise<TemplateRow | undefined> {
  const [row] = await db
    .select(versionFields)
    .from(messageTemplates)
    .leftJoin(users, eq(users.id, messageTemplates.createdByUserId))
    .where(and(eq(messageTemplates.key, key), eq(messageTemplates.version, version)))
    .limit(1);
  return row;
}

export async function listVersions(db: DbOrTx, key: string): Promise<TemplateRow[]> {
  return db
    .select(versionFields)
    .from(messageTemplates)
    .leftJoin(users, eq(users.id, messageTemplates.createdByUserId))
    .where(eq(messageTemplates.key, key))
    .orderBy(desc(messageTemplates.version));
}

export interface NewVersion {
  key: string;
  channel: 'email' | 'sms' | 'pdf';
  subject: string | null;
  htmlBody: string | null;
  textBody: string;
  version: number;
  createdByUserId: number | null;
  restoredFromVersion: number | null;
  createdAt: Date;
}

/**
 * Inserts a version; `false` when that version number of the key already exists (someone saved at
 * the same moment: the unique index on key and version decides).
 */
export async function insertVersion(tx: DbOrTx, values: NewVersion): Promise<boolean> {
  const inserted = await tx
    .insert(messageTemplates)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: messageTemplates.id });
  return inserted.length === 1;
}
