import type { FastifyInstance } from 'fastify';
import { getDashboardSummary } from '@portale/shared/dashboard';
import { registerEndpoint } from '../../lib/endpoint-route.ts';
import { summarise } from './dashboard.repository.ts';

/** The staff home's key figures. */
export async function dashboardRoutes(app: FastifyInstance) {
  registerEndpoint(app, getDashboardSummary, {}, () => summarise(app.db, app.clock.now()));
}
