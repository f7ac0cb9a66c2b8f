import type { FastifyInstance } from 'fastify';
import { searchSchoolSiteOptions } from '@portale/shared/accounts';
import { registerEndpoint } from '../../lib/endpoint-route.ts';
import * as repo from './school-sites.repository.ts';

const MAX_RESULTS = 20;

/** The plesso picker of the registration forms: public, rate limited, at most 20 results. */
export async function schoolSiteSearchRoutes(app: FastifyInstance) {
  const config = { rateLimit: { max: app.env.ACCOUNT_RATE_LIMIT_MAX * 3, timeWindow: '1 minute' } };
  registerEndpoint(app, searchSchoolSiteOptions, { config }, async (request) => ({
    items: await repo.searchSchoolSiteOptions(app.db, request.query.q, MAX_RESULTS),
  }));
}
