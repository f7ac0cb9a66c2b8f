import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { desc, eq, ilike, or, sql } from 'drizzle-orm';
import { ACCOUNT_PATHS, SchoolSiteSearchQuerySchema, SchoolSiteSearchResponseSchema } from '@portale/shared/accounts';
import { institutes, schoolSites } from '../../db/schema/index.ts';

const MAX_RESULTS = 20;

/** Escapes LIKE wildcards so that user text matches literally. */
function likeLiteral(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The plesso picker of the registration forms: public, rate limited, at most 20 results. */
export async function schoolSiteSearchRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    ACCOUNT_PATHS.schoolSiteSearch,
    {
      config: { rateLimit: { max: app.env.ACCOUNT_RATE_LIMIT_MAX * 3, timeWindow: '1 minute' } },
      schema: {
        tags: ['accounts'],
        summary: 'Cerca un plesso per nome, comune o codice meccanografico',
        querystring: SchoolSiteSearchQuerySchema,
        response: { 200: SchoolSiteSearchResponseSchema },
      },
    },
    async (request) => {
      const q = request.query.q;
      const pattern = `%${likeLiteral(q)}%`;
      const rows = await app.db
        .select({
          id: schoolSites.id,
          ministryCode: schoolSites.ministryCode,
          name: schoolSites.name,
          municipalityName: schoolSites.municipalityName,
          province: schoolSites.province,
          schoolLevel: schoolSites.schoolLevel,
          instituteName: institutes.name,
        })
        .from(schoolSites)
        .innerJoin(institutes, eq(institutes.id, schoolSites.instituteId))
        .where(
          or(
            ilike(schoolSites.name, pattern),
            ilike(schoolSites.municipalityName, pattern),
            ilike(schoolSites.ministryCode, `${likeLiteral(q)}%`),
            sql`${q} <% ${schoolSites.name}`,
          ),
        )
        .orderBy(
          desc(sql`upper(${schoolSites.ministryCode}) = upper(${q})`),
          desc(sql`greatest(word_similarity(${q}, ${schoolSites.name}), similarity(${schoolSites.municipalityName}, ${q}))`),
          schoolSites.name,
        )
        .limit(MAX_RESULTS);
      return { items: rows };
    },
  );
}
