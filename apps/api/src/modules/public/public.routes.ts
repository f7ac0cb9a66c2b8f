import type { FastifyInstance } from 'fastify';
import {
  DOCUMENT_CATEGORIES,
  DOCUMENT_CATEGORY_LABELS,
  downloadPublicDocument,
  getPublicFigures,
  getPublicSurvey,
  listPublicDocuments,
} from '@portale/shared/public';
import { dataVersion } from '../../lib/data-version.repository.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { openStored } from '../../lib/uploads.ts';
import { HttpError } from '../../lib/http-error.ts';
import * as repo from './public.repository.ts';

const PUBLIC_CACHE = 'public, max-age=60';

/** Read-only public endpoints: key figures, published documents, the current survey. */
export async function publicRoutes(app: FastifyInstance) {
  // The figures are counted again only after a write they depend on (decision 020): a call is one indexed read.
  let counted: { version: string; figures: Awaited<ReturnType<typeof repo.countFigures>> } | null = null;
  registerEndpoint(app, getPublicFigures, {}, async (_request, reply) => {
    const version = await dataVersion(app.db, 'figures');
    if (counted?.version !== version) counted = { version, figures: await repo.countFigures(app.db) };
    const figures = counted.figures;
    reply.header('cache-control', PUBLIC_CACHE);
    return { ...figures, updatedAt: app.clock.now().toISOString() };
  });

  registerEndpoint(app, listPublicDocuments, {}, async (_request, reply) => {
    const rows = await repo.listPublishedDocuments(app.db);
    reply.header('cache-control', PUBLIC_CACHE);
    const groups = DOCUMENT_CATEGORIES.map((category) => ({
      category,
      label: DOCUMENT_CATEGORY_LABELS[category],
      documents: rows.filter((r) => r.category === category),
    })).filter((g) => g.documents.length > 0);
    return { groups };
  });

  registerEndpoint(app, downloadPublicDocument, {}, async (request, reply) => {
    const doc = await repo.findPublishedDocumentFile(app.db, request.params.documentId);
    const missing = () =>
      new HttpError(404, 'document_not_found', 'Il documento richiesto non esiste o non è più pubblicato.');
    if (!doc) throw missing();
    return reply
      .header('cache-control', 'public, max-age=3600')
      .header('content-disposition', `attachment; filename="${doc.fileName.replace(/[^\w.-]/g, '_')}"`)
      .header('content-length', String(doc.sizeBytes))
      .type(doc.contentType)
      .send(
        doc.fileKey
          ? await openStored(app, doc.fileKey, missing)
          : Buffer.from(doc.content ?? Buffer.alloc(0)),
      );
  });

  registerEndpoint(app, getPublicSurvey, {}, async (_request, reply) => {
    const survey = await repo.findCurrentSurvey(app.db);
    if (!survey) throw new HttpError(404, 'survey_not_found', 'Al momento non ci sono indagini in corso.');
    reply.header('cache-control', PUBLIC_CACHE);
    return survey;
  });
}
