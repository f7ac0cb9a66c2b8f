import { and, asc, count, countDistinct, desc, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DOCUMENT_CATEGORIES,
  DOCUMENT_CATEGORY_LABELS,
  DocumentListSchema,
  FiguresSchema,
  PUBLIC_PATHS,
  PublicSurveySchema,
} from '@portale/shared/public';
import { IdParamSchema } from '@portale/shared/validation';
import { institutes, publicDocuments, roles, schoolSites, surveys, userRoles } from '../../db/schema/index.ts';
import { HttpError } from '../../lib/http-error.ts';

const PUBLIC_CACHE = 'public, max-age=60';

/** Read-only public endpoints: key figures, published documents, the current survey. */
export async function publicRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.get(
    PUBLIC_PATHS.figures,
    { schema: { tags: ['public'], summary: 'Numeri chiave del programma', response: { 200: FiguresSchema } } },
    async (_request, reply) => {
      const db = app.db;
      const [enrolled] = await db.select({ n: count() }).from(institutes).where(ne(institutes.adhesionState, 'nessuna'));
      const [sites] = await db.select({ n: count() }).from(schoolSites).where(eq(schoolSites.participating, true));
      const [teachers] = await db
        .select({ n: countDistinct(userRoles.userId) })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .where(inArray(roles.name, ['teacher', 'educator']));
      reply.header('cache-control', PUBLIC_CACHE);
      return {
        institutesEnrolled: enrolled?.n ?? 0,
        participatingSites: sites?.n ?? 0,
        registeredTeachers: teachers?.n ?? 0,
        updatedAt: app.clock.now().toISOString(),
      };
    },
  );

  app.get(
    PUBLIC_PATHS.documents,
    { schema: { tags: ['public'], summary: 'Documenti pubblicati, per categoria', response: { 200: DocumentListSchema } } },
    async (_request, reply) => {
      const rows = await app.db
        .select({
          id: publicDocuments.id,
          category: publicDocuments.category,
          title: publicDocuments.title,
          description: publicDocuments.description,
          fileName: publicDocuments.fileName,
          sizeBytes: publicDocuments.sizeBytes,
          publishedAt: publicDocuments.publishedAt,
        })
        .from(publicDocuments)
        .where(isNotNull(publicDocuments.publishedAt))
        .orderBy(asc(publicDocuments.sortOrder), asc(publicDocuments.title));
      reply.header('cache-control', PUBLIC_CACHE);
      const groups = DOCUMENT_CATEGORIES.map((category) => ({
        category,
        label: DOCUMENT_CATEGORY_LABELS[category],
        documents: rows.filter((r) => r.category === category).map((r) => ({ ...r, publishedAt: r.publishedAt!.toISOString() })),
      })).filter((g) => g.documents.length > 0);
      return { groups };
    },
  );

  app.get(
    PUBLIC_PATHS.documentFile,
    {
      schema: {
        tags: ['public'],
        summary: 'Scarica un documento pubblicato',
        params: z.object({ documentId: IdParamSchema }),
      },
    },
    async (request, reply) => {
      const [doc] = await app.db
        .select({ fileName: publicDocuments.fileName, contentType: publicDocuments.contentType, content: publicDocuments.content })
        .from(publicDocuments)
        .where(and(eq(publicDocuments.id, request.params.documentId), isNotNull(publicDocuments.publishedAt)));
      if (!doc) throw new HttpError(404, 'document_not_found', 'Il documento richiesto non esiste o non è più pubblicato.');
      return reply
        .header('cache-control', 'public, max-age=3600')
        .header('content-disposition', `attachment; filename="${doc.fileName.replace(/[^\w.-]/g, '_')}"`)
        .type(doc.contentType)
        .send(Buffer.from(doc.content));
    },
  );

  app.get(
    PUBLIC_PATHS.survey,
    { schema: { tags: ['public'], summary: "L'indagine in corso", response: { 200: PublicSurveySchema } } },
    async (_request, reply) => {
      const [survey] = await app.db
        .select({
          id: surveys.id,
          title: surveys.title,
          purpose: surveys.purpose,
          audience: surveys.audience,
          state: surveys.state,
          opensOn: surveys.opensOn,
          closesOn: surveys.closesOn,
        })
        .from(surveys)
        .where(ne(surveys.state, 'bozza'))
        .orderBy(desc(surveys.state), desc(surveys.opensOn))
        .limit(1);
      if (!survey) throw new HttpError(404, 'survey_not_found', 'Al momento non ci sono indagini in corso.');
      reply.header('cache-control', PUBLIC_CACHE);
      return survey;
    },
  );
}
