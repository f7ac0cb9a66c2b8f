import { randomBytes } from 'node:crypto';
import { DOCUMENT_MESSAGES, type DocumentUpdate } from '@portale/shared/documents';
import type { DocumentCategory } from '@portale/shared/public';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite, changedFields, type Actor } from '../../lib/audit.ts';
import type { StoredFile } from '../../lib/file-store.ts';
import { HttpError } from '../../lib/http-error.ts';
import * as repo from './documents.repository.ts';

export const notFound = () => new HttpError(404, 'not_found', DOCUMENT_MESSAGES.notFound);

function slugOf(title: string): string {
  const base = title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return `${base || 'documento'}-${randomBytes(3).toString('hex')}`;
}

/** A safe download name ending in `.pdf`. */
function fileNameOf(given: string | undefined, title: string): string {
  const base = (given ?? title)
    .split(/[\\/]/)
    .pop()!
    .replace(/\.pdf$/i, '')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120);
  return `${base || 'documento'}.pdf`;
}

export interface NewDocument {
  title: string;
  description: string;
  category: DocumentCategory;
  /** The name the file was chosen with (the title when none). */
  fileName?: string;
  /** The PDF, already in the file store. */
  file: StoredFile;
}

/** Records an uploaded PDF as a new (unpublished) document with its audit row; its id. */
export function createDocument(db: Db, actor: Actor, input: NewDocument): Promise<number> {
  const { title, description, category, file } = input;
  const fileName = fileNameOf(input.fileName, title);
  return withTransaction(db, async (tx) => {
    const documentId = await repo.insertDocument(tx, {
      slug: slugOf(title),
      category,
      title,
      description,
      fileName,
      file,
      createdAt: actor.at,
    });
    await auditWrite(tx, actor, {
      action: 'document.created',
      entity: 'document',
      entityId: documentId,
      after: { title, description, category, fileName, sizeBytes: file.sizeBytes, sha256: file.sha256 },
    });
    return documentId;
  });
}

/** Saves what changed (nothing changed: nothing written); publishing and unpublishing are audited as such. */
export function updateDocument(
  db: Db,
  actor: Actor,
  documentId: number,
  body: DocumentUpdate,
): Promise<void> {
  return withTransaction(db, async (tx) => {
    const current = await repo.findDocument(tx, documentId, true);
    if (!current) throw notFound();
    const before = {
      title: current.title,
      description: current.description,
      category: current.category,
      published: current.published,
    };
    const diff = changedFields(before, body);
    if (Object.keys(diff.after).length === 0) return;
    const { published, ...fields } = diff.after;
    await repo.updateDocumentFields(tx, documentId, {
      ...fields,
      ...(published === undefined ? {} : { publishedAt: published ? actor.at : null }),
    });
    const action =
      published === true
        ? 'document.published'
        : published === false
          ? 'document.unpublished'
          : 'document.updated';
    await auditWrite(tx, actor, { action, entity: 'document', entityId: documentId, ...diff });
  });
}

/**
 * Replaces a document's PDF with an uploaded one, with its audit row (which records what the previous
 * file was). The answer is the store key of the previous file, for the caller to remove once this is
 * committed (the previous PDF is not kept).
 */
export function replaceDocumentFile(
  db: Db,
  actor: Actor,
  documentId: number,
  input: { fileName?: string; file: StoredFile },
): Promise<string | null> {
  const { file } = input;
  return withTransaction(db, async (tx) => {
    const current = await repo.findDocument(tx, documentId, true);
    if (!current) throw notFound();
    const old = await repo.findDocumentFileRef(tx, documentId);
    const fileName = fileNameOf(input.fileName, current.title);
    await repo.replaceDocumentContent(tx, documentId, { fileName, file });
    await auditWrite(tx, actor, {
      action: 'document.file-replaced',
      entity: 'document',
      entityId: documentId,
      before: { fileName: current.fileName, sizeBytes: current.sizeBytes, sha256: old?.sha256 ?? null },
      after: { fileName, sizeBytes: file.sizeBytes, sha256: file.sha256 },
    });
    return old?.fileKey ?? null;
  });
}
