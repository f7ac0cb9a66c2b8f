import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';

/** Liveness and readiness, for a load balancer or an orchestrator (no session, no rate limit). */

const DatabaseUp = z.object({ status: z.literal('ok'), database: z.literal('ok') });
const DatabaseDown = z.object({ status: z.literal('error'), database: z.literal('error') });

/** `/api/health`: same as ready (kept for existing monitors). */
export const getHealth = defineEndpoint({
  method: 'GET',
  path: '/api/health',
  permission: 'public',
  tag: 'system',
  summary: 'Stato del servizio e del database (come /api/health/ready)',
  response: DatabaseUp,
  otherResponses: { 503: DatabaseDown },
});

/** The database answers too; take the instance out of rotation while it is 503. */
export const getReadiness = defineEndpoint({
  method: 'GET',
  path: '/api/health/ready',
  permission: 'public',
  tag: 'system',
  summary: 'Pronto: il servizio e il database rispondono (503 se il database non risponde)',
  response: DatabaseUp,
  otherResponses: { 503: DatabaseDown },
});

/** The process answers (no database); restart the instance only when this fails. */
export const getLiveness = defineEndpoint({
  method: 'GET',
  path: '/api/health/live',
  permission: 'public',
  tag: 'system',
  summary: 'Vivo: il processo risponde (senza interrogare il database)',
  response: z.object({ status: z.literal('ok') }),
});
