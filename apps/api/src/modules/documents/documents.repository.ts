import { and, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { DocumentListQuery, StaffDocument } from '@portale/shared/documents';
import { publicDocuments } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import { aliased, countAll, likeLiteral, orderByOf, paginate, rawRows, rowValue, type Page } from '../../lib/list.ts';

type Filters = Omit<DocumentListQuery, 'page' | 'pageSize' | 'sort'> & { sort?: DocumentListQuery['sort'] };

const fields = aliased({
  id: publicDocuments.id,
  category: publicDocuments.category,
  title: publicDocuments.title,
  description: publicDocuments.description,
  fileName: publicDocuments.fileName,
  sizeBytes: publicDocuments.sizeBytes,
  publishedAt: publicDocuments.publishedAt,
  createdAt: publicDocuments.createdAt,
});

const SORT_COLUMNS = {
  title: publicDocuments.title,
  category: publicDocuments.category,
  createdAt: publicDocuments.createdAt,
  sizeBytes: publicDocuments.sizeBytes,
};

export function toStaffDocument(row: Record<string, unknown>): StaffDocument {
  const publishedAt = rowValue.iso(row.publishedAt);
  return {
    id: rowValue.int(row.id),
    category: row.category as StaffDocument['category'],
    title: rowValue.text(row.title),
    description: rowValue.text(row.description),
    fileName: rowValue.text(row.fileName),
    sizeBytes: rowValue.int(row.sizeBytes),
    published: publishedAt !== null,
    publishedAt,
    createdAt: rowValue.iso(row.createdAt)!,
  };
}

function whereOf(filters: Filters): SQL | undefined {
  const words = (filters.q ?? '').trim().split(/\s+/).filter(Boolean);
  return and(
    ...words.map((w) => sql`(${publicDocuments.title} ilike ${`%${likeLiteral(w)}%`} or ${publicDocuments.description} ilike ${`%${likeLiteral(w)}%`} or ${publicDocuments.fileName} ilike ${`%${likeLiteral(w)}%`})`),
    filters.category ? eq(publicDocuments.category, filters.category) : undefined,
    filters.published === undefined ? undefined : filters.published ? isNotNull(publicDocuments.publishedAt) : isNull(publicDocuments.publishedAt),
  );
}

/** The filtered, sorted documents (never their content): the list's page and the export's rows. */
export function documentListQuery(db: DbOrTx, filters: Filters) {
  return db
    .select(fields)
    .from(publicDocuments)
    .where(whereOf(filters))
    .orderBy(...orderByOf(filters.sort ?? { column: 'title', direction: 'asc' }, SORT_COLUMNS, publicDocuments.id));
}

export async function countDocuments(db: DbOrTx, filters: Filters): Promise<number> {
  const [row] = await db.select({ n: countAll }).from(publicDocuments).where(whereOf(filters));
  return row?.n ?? 0;
}

export function listDocuments(db: DbOrTx, query: DocumentListQuery): Promise<Page<StaffDocument>> {
  return paginate(
    async (limit, offset) => (await rawRows(db, documentListQuery(db, query).limit(limit).offset(offset))).map(toStaffDocument),
    () => countDocuments(db, query),
    query.page,
    query.pageSize,
  );
}

export async function findDocument(db: DbOrTx, documentId: number, forUpdate = false): Promise<StaffDocument | undefined> {
  const query = db.select(fields).from(publicDocuments).where(eq(publicDocuments.id, documentId));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row && toStaffDocument(row);
}

export async function documentExists(db: DbOrTx, documentId: number): Promise<boolean> {
  const [row] = await db.select({ id: publicDocuments.id }).from(publicDocuments).where(eq(publicDocuments.id, documentId));
  return row !== undefined;
}

export async function findDocumentFile(db: DbOrTx, documentId: number) {
  const [row] = await db
    .select({ fileName: publicDocuments.fileName, contentType: publicDocuments.contentType, content: publicDocuments.content })
    .from(publicDocuments)
    .where(eq(publicDocuments.id, documentId));
  return row;
}

export async function insertDocument(
  tx: DbOrTx,
  values: { slug: string; category: StaffDocument['category']; title: string; description: string; fileName: string; content: Buffer; createdAt: Date },
): Promise<number> {
  const [row] = await tx
    .insert(publicDocuments)
    .values({ ...values, contentType: 'application/pdf', sizeBytes: values.content.byteLength, publishedAt: null })
    .returning({ id: publicDocuments.id });
  return row!.id;
}

export async function updateDocumentFields(
  tx: DbOrTx,
  documentId: number,
  changes: Partial<{ title: string; description: string; category: StaffDocument['category']; publishedAt: Date | null }>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await tx.update(publicDocuments).set(changes).where(eq(publicDocuments.id, documentId));
}

/** Replaces the PDF (the previous one is not kept: the audit log records what it was). */
export async function replaceDocumentContent(tx: DbOrTx, documentId: number, file: { fileName: string; content: Buffer }): Promise<void> {
  await tx
    .update(publicDocuments)
    .set({ fileName: file.fileName, content: file.content, sizeBytes: file.content.byteLength, contentType: 'application/pdf' })
    .where(eq(publicDocuments.id, documentId));
}
