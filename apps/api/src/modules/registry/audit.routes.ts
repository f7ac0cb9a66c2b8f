import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AUDITED_ENTITIES, listAudit, type AuditedEntity } from '@portale/shared/registry';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { requirePermission } from '../../plugins/authorization.ts';
import * as repo from './audit.repository.ts';

/** The audit of one record (institute, plesso, user, teacher), newest first. */
export async function auditRoutes(app: FastifyInstance) {
  // Reading a record's audit also needs reading that kind of record (Sylla staff read no user's audit).
  const readEntity = new Map(AUDITED_ENTITIES.map((entity) => [entity, requirePermission(`read:${entity}`)]));
  const mayReadEntity = (request: FastifyRequest) =>
    readEntity.get((request.query as { entity: AuditedEntity }).entity)!(request);
  registerEndpoint(app, listAudit, { preHandler: mayReadEntity }, (request) =>
    repo.listAudit(app.db, request.query),
  );
}
