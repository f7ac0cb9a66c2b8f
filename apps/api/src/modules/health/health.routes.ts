import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';

const DatabaseStatus = {
  200: z.object({ status: z.literal('ok'), database: z.literal('ok') }),
  503: z.object({ status: z.literal('error'), database: z.literal('error') }),
};

/**
 * Liveness and readiness, for a load balancer or an orchestrator:
 * - `/api/health/live`: the process answers (no database); restart the instance only when this fails;
 * - `/api/health/ready`: the database answers too; take the instance out of rotation while it is 503;
 * - `/api/health`: same as ready (kept for existing monitors).
 */
export async function healthRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { rateLimit: false } as const;

  const ready = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      await app.db.execute(sql`select 1`);
      return { status: 'ok' as const, database: 'ok' as const };
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unreachable');
      return reply.status(503).send({ status: 'error' as const, database: 'error' as const });
    }
  };

  r.get('/api/health', { config, schema: { tags: ['system'], summary: 'Stato del servizio e del database (come /api/health/ready)', response: DatabaseStatus } }, ready);
  r.get('/api/health/ready', { config, schema: { tags: ['system'], summary: 'Pronto: il servizio e il database rispondono (503 se il database non risponde)', response: DatabaseStatus } }, ready);
  r.get(
    '/api/health/live',
    { config, schema: { tags: ['system'], summary: 'Vivo: il processo risponde (senza interrogare il database)', response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );
}
