import { and, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { DocumentListQuery, StaffDocument } from '@portale/shared/documents';
import { publicDocuments } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import type { StoredFile } from '../../lib/file-store.ts';
import {
  aliased,
  countAll,
  likeLiteral,
  orderByOf,
  paginate,
  rawRows,
  rowValue,
  type Page,
} from '../../lib/list.ts';

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
    ...words.map(
      (w) =>
        sql`(${publicDocuments.title} ilike ${`%${likeLiteral(w)}%`} or ${publicDocuments.description} ilike ${`%${likeLiteral(w)}%`} or ${publicDocuments.fileName} ilike ${`%${likeLiteral(w)}%`})`,
    ),
    filters.category ? eq(publicDocuments.category, filters.category) : undefined,
    filters.published === undefined
      ? undefined
      : filters.published
        ? isNotNull(publicDocuments.publishedAt)
        : isNull(publicDocuments.publishedAt),
  );
}

/** The filtered, sorted documents (never their content): the list's page and the export's rows. */
export function documentListQuery(db: DbOrTx, filters: Filters) {
  return db
    .select(fields)
    .from(publicDocuments)
    .where(whereOf(filters))
    .orderBy(
      ...orderByOf(filters.sort ?? { column: 'title', direction: 'asc' }, SORT_COLUMNS, publicDocuments.id),
    );
}

export async function countDocuments(db: DbOrTx, filters: Filters): Promise<number> {
  const [row] = await db.select({ n: countAll }).from(publicDocuments).where(whereOf(filters));
  return row?.n ?? 0;
}

export function listDocuments(db: DbOrTx, query: DocumentListQuery): Promise<Page<StaffDocument>> {
  return paginate(
    async (limit, offset) =>
      (await rawRows(db, documentListQuery(db, query).limit(limit).offset(offset))).map(toStaffDocument),
    () => countDocuments(db, query),
    query.page,
    query.pageSize,
  );
}

export async function findDocument(
  db: DbOrTx,
  documentId: number,
  forUpdate = false,
): Promise<StaffDocument | undefined> {
  const query = db.select(fields).from(publicDocuments).where(eq(publicDocuments.id, documentId));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row && toStaffDocument(row);
}

export async function documentExists(db: DbOrTx, documentId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: publicDocuments.id })
    .from(publicDocuments)
    .where(eq(publicDocuments.id, documentId));
  return row !== undefined;
}

/** Where a document's PDF is (never its bytes): its key in the file store, or none for a row written before decision 030. */
export async function findDocumentFileRef(db: DbOrTx, documentId: number) {
  const [row] = await db
    .select({
      fileName: publicDocuments.fileName,
      fileKey: publicDocuments.fileKey,
      sizeBytes: publicDocuments.sizeBytes,
      sha256: sql<
        string | null
      >`coalesce(${publicDocuments.sha256}, encode(sha256(${publicDocuments.content}), 'hex'))`,
    })
    .from(publicDocuments)
    .where(eq(publicDocuments.id, documentId));
  return row;
}

/** The bytes kept in the row by a document written before decision 030. */
export async function findLegacyDocumentContent(db: DbOrTx, documentId: number): Promise<Buffer> {
  const [row] = await db
    .select({ content: publicDocuments.content })
    .from(publicDocuments)
    .where(eq(publicDocuments.id, documentId));
  return Buffer.from(row?.content ?? Buffer.alloc(0));
}

export async function insertDocument(
  tx: DbOrTx,
  values: {
    slug: string;
    category: StaffDocument['category'];
    title: string;
    description: string;
    fileName: string;
    file: StoredFile;
    createdAt: Date;
  },
): Promise<number> {
  const { file, ...rest } = values;
  const [row] = await tx
    .insert(publicDocuments)
    .values({
      ...rest,
      contentType: 'application/pdf',
      fileKey: file.key,
      sha256: file.sha256,
      sizeBytes: file.sizeBytes,
      publishedAt: null,
    })
    .returning({ id: publicDocuments.id });
  return row!.id;
}

export async function updateDocumentFields(
  tx: DbOrTx,
  documentId: number,
  changes: Partial<{
    title: string;
    description: string;
    category: StaffDocument['category'];
    publishedAt: Date | null;
  }>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await tx.update(publicDocuments).set(changes).where(eq(publicDocuments.id, documentId));
}

/** Replaces the PDF (the previous one is not kept: the audit log records what it was). */
export async function replaceDocumentContent(
  tx: DbOrTx,
  documentId: number,
  change: { fileName: string; file: StoredFile },
): Promise<void> {
  await tx
    .update(publicDocuments)
    .set({
      fileName: change.fileName,
      content: null,
      fileKey: change.file.key,
      sha256: change.file.sha256,
      sizeBytes: change.file.sizeBytes,
      contentType: 'application/pdf',
    })
    .where(eq(publicDocuments.id, documentId));
}
