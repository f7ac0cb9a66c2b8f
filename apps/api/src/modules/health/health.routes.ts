import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getHealth, getLiveness, getReadiness } from '@portale/shared/http';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { pingDatabase } from './health.repository.ts';

/**
 * Liveness and readiness, for a load balancer or an orchestrator:
 * - `/api/health/live`: the process answers (no database); restart the instance only when this fails;
 * - `/api/health/ready`: the database answers too; take the instance out of rotation while it is 503;
 * - `/api/health`: same as ready (kept for existing monitors).
 */
export async function healthRoutes(app: FastifyInstance) {
  const options = { config: { rateLimit: false } } as const;

  const ready = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      await pingDatabase(app.db);
      return { status: 'ok' as const, database: 'ok' as const };
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unreachable');
      return reply.status(503).send({ status: 'error' as const, database: 'error' as const });
    }
  };

  registerEndpoint(app, getHealth, options, ready);
  registerEndpoint(app, getReadiness, options, ready);
  registerEndpoint(app, getLiveness, options, async () => ({ status: 'ok' as const }));
}
