import type { FastifyInstance } from 'fastify';
import { searchSchoolSiteOptions } from '@portale/shared/accounts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { heavyList } from '../../lib/gates.ts';
import * as repo from './school-sites.repository.ts';

const MAX_RESULTS = 20;

/** The plesso picker of the registration forms: public, rate limited, at most 20 results. */
export async function schoolSiteSearchRoutes(app: FastifyInstance) {
  const config = { rateLimit: { max: app.env.ACCOUNT_RATE_LIMIT_MAX * 3, timeWindow: '1 minute' } };
  registerEndpoint(app, searchSchoolSiteOptions, { config }, async (request) => ({
    // Through the list gate (issue 32): a flood of searches waits its turn or gets a 503, never health or login.
    items: await heavyList(app, { search: true }, (db) =>
      repo.searchSchoolSiteOptions(db, request.query.q, MAX_RESULTS),
    ),
  }));
}
