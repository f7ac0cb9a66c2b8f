import type { FastifyInstance } from 'fastify';
import { listAudit } from '@portale/shared/registry';
import { registerEndpoint } from '../../lib/endpoint-route.ts';
import { requirePermission } from '../../plugins/authorization.ts';
import * as repo from './audit.repository.ts';

/** The audit of one record (institute, plesso, user, teacher), newest first. */
export async function auditRoutes(app: FastifyInstance) {
  registerEndpoint(app, listAudit, { preHandler: requirePermission('read:audit') }, (request) => repo.listAudit(app.db, request.query));
}
