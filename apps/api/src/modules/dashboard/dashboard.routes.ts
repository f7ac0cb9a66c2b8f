import type { FastifyInstance } from 'fastify';
import { getDashboardSummary } from '@portale/shared/dashboard';
import { registerEndpoint } from '../../lib/endpoint-route.ts';
import { requirePermission } from '../../plugins/authorization.ts';
import { summarise } from './dashboard.repository.ts';

/** The staff home's key figures. */
export async function dashboardRoutes(app: FastifyInstance) {
  registerEndpoint(app, getDashboardSummary, { preHandler: requirePermission('read:dashboard') }, () => summarise(app.db, app.clock.now()));
}
