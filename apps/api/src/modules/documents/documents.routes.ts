import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  createDocument,
  DOCUMENT_MAX_BYTES,
  DOCUMENT_MESSAGES,
  downloadDocument,
  exportDocuments,
  getDocument,
  listDocuments,
  replaceDocumentFile,
  updateDocument,
  type StaffDocument,
} from '@portale/shared/documents';
import { DOCUMENT_CATEGORY_LABELS } from '@portale/shared/public';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite, changedFields } from '../../lib/audit.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { HttpError } from '../../lib/http-error.ts';
import {
  discardUnclaimedUploads,
  openStored,
  removeStored,
  Upload,
  uploadParser,
} from '../../lib/uploads.ts';
import { forEachBatch } from '../../lib/list.ts';
import { requireGrant } from '../../plugins/authorization.ts';
import * as repo from './documents.repository.ts';

const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');

const EXPORT_COLUMNS: ExportColumn<StaffDocument>[] = [
  { header: 'Titolo', value: (r) => r.title },
  { header: 'Categoria', value: (r) => DOCUMENT_CATEGORY_LABELS[r.category] },
  { header: 'Descrizione', value: (r) => r.description },
  { header: 'File', value: (r) => r.fileName },
  { header: 'Dimensione (byte)', value: (r) => r.sizeBytes },
  { header: 'Pubblicato', value: (r) => r.published },
  { header: 'Pubblicato il', value: (r) => (r.publishedAt ? new Date(r.publishedAt) : null) },
  { header: 'Caricato il', value: (r) => new Date(r.createdAt) },
];

const notFound = () => new HttpError(404, 'not_found', DOCUMENT_MESSAGES.notFound);

/**
 * The uploaded file (streamed to the file store by the parser), checked before anything else is done
 * with it: not empty, and starting with the PDF magic bytes `%PDF-` (whatever its name or declared
 * type says). Only PDFs are ever kept or served.
 */
function pdfOf(body: unknown): Upload {
  if (!(body instanceof Upload) || body.file.sizeBytes === 0)
    throw new HttpError(422, 'empty_file', DOCUMENT_MESSAGES.empty);
  if (
    body.file.head.length < PDF_MAGIC.length ||
    !body.file.head.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC)
  )
    throw new HttpError(422, 'not_pdf', DOCUMENT_MESSAGES.notPdf);
  return body;
}

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

async function documentOf(request: FastifyRequest) {
  const { documentId } = request.params as { documentId: number };
  return (await repo.documentExists(request.server.db, documentId)) ? { ownerUserIds: [] } : undefined;
}

/** Staff management of the published documents: upload (PDF only), replace, publish, edit, list. */
export async function documentRoutes(app: FastifyInstance) {
  // The PDF is the body (no multipart): only on this plugin's routes, with its own size limit.
  // The body is streamed to the file store (decision 030), never held in memory or written to the database.
  app.addContentTypeParser(
    'application/pdf',
    { bodyLimit: DOCUMENT_MAX_BYTES },
    uploadParser(
      DOCUMENT_MAX_BYTES,
      () => new HttpError(413, 'payload_too_large', DOCUMENT_MESSAGES.tooLarge),
    ),
  );
  discardUnclaimedUploads(app);
  // Who may upload is checked before the body is read (a guest's 20 MB are never read).
  const uploadGuards = new Map([
    [`POST ${createDocument.path}`, requireGrant('create:document')],
    [`PUT ${replaceDocumentFile.path}`, requireGrant('update:document')],
  ]);
  app.addHook('preParsing', async (request) => {
    const guard = uploadGuards.get(`${request.method} ${request.routeOptions.url}`);
    guard?.(request);
  });

  registerEndpoint(app, listDocuments, {}, (request) => repo.listDocuments(app.db, request.query));

  registerEndpoint(app, exportDocuments, {}, async (request, reply) => {
    const { format, ...filters } = request.query;
    return sendExport(reply, {
      format,
      name: 'documenti',
      sheetName: 'Documenti',
      columns: EXPORT_COLUMNS,
      total: await repo.countDocuments(app.db, filters),
      today: app.clock.now(),
      produce: (write) =>
        forEachBatch(app.db, repo.documentListQuery(app.db, filters), repo.toStaffDocument, write),
    });
  });

  registerEndpoint(app, createDocument, {}, async (request, reply) => {
    const upload = pdfOf(request.body);
    const { file } = upload;
    const { title, description, category } = request.query;
    const fileName = fileNameOf(request.query.fileName, title);
    const id = await withTransaction(app.db, async (tx) => {
      const documentId = await repo.insertDocument(tx, {
        slug: slugOf(title),
        category,
        title,
        description,
        fileName,
        file,
        createdAt: app.clock.now(),
      });
      await auditWrite(tx, request, {
        action: 'document.created',
        entity: 'document',
        entityId: documentId,
        after: { title, description, category, fileName, sizeBytes: file.sizeBytes, sha256: file.sha256 },
      });
      return documentId;
    });
    upload.claim();
    reply.header('location', `/api/documents/${id}`);
    return (await repo.findDocument(app.db, id))!;
  });

  registerEndpoint(app, getDocument, { resource: documentOf }, async (request) => {
    const doc = await repo.findDocument(app.db, request.params.documentId);
    if (!doc) throw notFound();
    return doc;
  });

  registerEndpoint(app, updateDocument, { resource: documentOf }, async (request) => {
    const { documentId } = request.params;
    await withTransaction(app.db, async (tx) => {
      const current = await repo.findDocument(tx, documentId, true);
      if (!current) throw notFound();
      const before = {
        title: current.title,
        description: current.description,
        category: current.category,
        published: current.published,
      };
      const diff = changedFields(before, request.body);
      if (Object.keys(diff.after).length === 0) return;
      const { published, ...fields } = diff.after;
      await repo.updateDocumentFields(tx, documentId, {
        ...fields,
        ...(published === undefined ? {} : { publishedAt: published ? app.clock.now() : null }),
      });
      const action =
        published === true
          ? 'document.published'
          : published === false
            ? 'document.unpublished'
            : 'document.updated';
      await auditWrite(tx, request, { action, entity: 'document', entityId: documentId, ...diff });
    });
    return (await repo.findDocument(app.db, documentId))!;
  });

  registerEndpoint(app, replaceDocumentFile, { resource: documentOf }, async (request) => {
    const upload = pdfOf(request.body);
    const { file } = upload;
    const { documentId } = request.params;
    const replacedKey = await withTransaction(app.db, async (tx) => {
      const current = await repo.findDocument(tx, documentId, true);
      if (!current) throw notFound();
      const old = await repo.findDocumentFileRef(tx, documentId);
      const fileName = fileNameOf(request.query.fileName, current.title);
      await repo.replaceDocumentContent(tx, documentId, { fileName, file });
      await auditWrite(tx, request, {
        action: 'document.file-replaced',
        entity: 'document',
        entityId: documentId,
        before: { fileName: current.fileName, sizeBytes: current.sizeBytes, sha256: old?.sha256 ?? null },
        after: { fileName, sizeBytes: file.sizeBytes, sha256: file.sha256 },
      });
      return old?.fileKey ?? null;
    });
    upload.claim();
    // The previous PDF is not kept (the audit log records what it was).
    await removeStored(app, request, [replacedKey]);
    return (await repo.findDocument(app.db, documentId))!;
  });

  registerEndpoint(app, downloadDocument, { resource: documentOf }, async (request, reply) => {
    const doc = await repo.findDocumentFileRef(app.db, request.params.documentId);
    if (!doc) throw notFound();
    // Streamed from the file store; rows written before decision 030 still have their bytes in the row.
    const body = doc.fileKey
      ? await openStored(app, doc.fileKey, notFound)
      : Readable.from([await repo.findLegacyDocumentContent(app.db, request.params.documentId)]);
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="${doc.fileName.replace(/[^\w.-]/g, '_')}"`)
      .header('content-length', String(doc.sizeBytes))
      .type('application/pdf')
      .send(body);
  });
}
