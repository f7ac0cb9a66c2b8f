import type { FastifyInstance } from 'fastify';
import { recordConsent } from '@portale/shared/public';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { insertConsentRecord } from './consent.repository.ts';

/** Proof of each cookie choice (GDPR 7(1)): pseudonymous id, policy version, choices, time; never the IP. */
export async function consentRoutes(app: FastifyInstance) {
  const config = { rateLimit: { max: 30, timeWindow: '1 minute' } };
  registerEndpoint(app, recordConsent, { config }, async (request) => ({
    id: await insertConsentRecord(app.db, request.body, app.clock.now()),
  }));
}
