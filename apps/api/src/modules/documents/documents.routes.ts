import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
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
import { actorOf } from '../../lib/audit.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { HttpError } from '../../lib/http-error.ts';
import { forEachBatch } from '../../lib/list.ts';
import { openStored, removeStored } from '../../lib/uploads.ts';
import { registerEndpoint, type RequestWithParams } from '../../plugins/endpoint-route.ts';
import {
  FILE_SIGNATURES,
  hasSignature,
  registerUploads,
  storedUploadOf,
  type Upload,
} from '../../plugins/uploads.ts';
import * as repo from './documents.repository.ts';
import * as service from './documents.service.ts';
import { notFound } from './documents.service.ts';

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

/**
 * The uploaded file (streamed to the file store by the parser), checked before anything else is done
 * with it: not empty, and starting with the PDF magic bytes `%PDF-` (whatever its name or declared
 * type says). Only PDFs are ever kept or served.
 */
function pdfOf(body: unknown): Upload {
  const upload = storedUploadOf(body, {
    missing: () => new HttpError(422, 'empty_file', DOCUMENT_MESSAGES.empty),
  });
  if (!hasSignature(upload.file.head, FILE_SIGNATURES.pdf))
    throw new HttpError(422, 'not_pdf', DOCUMENT_MESSAGES.notPdf);
  return upload;
}

async function documentOf(request: RequestWithParams<{ documentId: number }>) {
  const { documentId } = request.params;
  return (await repo.documentExists(request.server.db, documentId)) ? { ownerUserIds: [] } : undefined;
}

/** Staff management of the published documents: upload (PDF only), replace, publish, edit, list. */
export async function documentRoutes(app: FastifyInstance) {
  // The PDF is the body, streamed to the file store (decision 030), never held in memory or written
  // to the database; who may upload is checked before it is read (a guest's 20 MB are never read).
  registerUploads(app, {
    endpoints: [createDocument, replaceDocumentFile],
    maxBytes: DOCUMENT_MAX_BYTES,
    tooLargeMessage: DOCUMENT_MESSAGES.tooLarge,
    keep: 'store',
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
    const id = await service.createDocument(app.db, actorOf(request), {
      ...request.query,
      file: upload.file,
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
    await service.updateDocument(app.db, actorOf(request), documentId, request.body);
    return (await repo.findDocument(app.db, documentId))!;
  });

  registerEndpoint(app, replaceDocumentFile, { resource: documentOf }, async (request) => {
    const upload = pdfOf(request.body);
    const { documentId } = request.params;
    const replacedKey = await service.replaceDocumentFile(app.db, actorOf(request), documentId, {
      ...request.query,
      file: upload.file,
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
