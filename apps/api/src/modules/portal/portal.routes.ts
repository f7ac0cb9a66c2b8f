import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PAGES } from '@portale/shared/pages';
import { HINTS_KEY, operationIdOf } from '../../lib/openapi-operation.ts';
import { requirePage } from '../../plugins/authorization.ts';

const PageFrameSchema = z.object({ id: z.string(), title: z.string(), description: z.string() });

/**
 * One endpoint per portal page, guarded by the same table as the web: the page frame of each portal
 * screen comes from here, so a page the web refuses is refused by the API too.
 */
export async function portalRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const page of PAGES.filter((p) => p.layout === 'authenticated' || p.access)) {
    r.get(
      `/api/portal/pages/${page.id}`,
      {
        preHandler: requirePage(page.id),
        schema: {
          tags: ['portal'],
          summary: `Pagina «${page.title}»`,
          operationId: operationIdOf('GET', `/api/portal/pages/${page.id}`),
          security: [{ bearer: [] }],
          [HINTS_KEY]: { errors: [400, 401, 403, 429] },
          response: { 200: PageFrameSchema },
        },
      },
      async () => ({ id: page.id, title: page.title, description: page.description }),
    );
  }
}
