import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PERMISSION_LABELS, ROLE_LABELS } from '@portale/shared/auth';
import {
  USER_ACTION_ENDPOINTS,
  USER_ACTIONS,
  USER_STATUS_LABELS,
  createUser,
  exportUsers,
  getUser,
  listUsers,
  updateUser,
  type UserSummary,
} from '@portale/shared/users';
import { registerEndpoint, type RequestWithParams } from '../../plugins/endpoint-route.ts';
import { serviceContextOf } from '../../plugins/service-context.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { forEachBatch } from '../../lib/list.ts';
import { runUserAction } from './user-actions.service.ts';
import * as repo from './users.repository.ts';
import * as service from './users.service.ts';

const EXPORT_COLUMNS: ExportColumn<UserSummary>[] = [
  { header: 'Cognome', value: (r) => r.lastName },
  { header: 'Nome', value: (r) => r.firstName },
  { header: 'E-mail', value: (r) => r.email },
  { header: 'Ruoli', value: (r) => r.roles.map((role) => ROLE_LABELS[role]).join(', ') },
  { header: 'Permessi diretti', value: (r) => r.permissions.map((p) => PERMISSION_LABELS[p]).join(', ') },
  { header: 'Stato', value: (r) => USER_STATUS_LABELS[r.status] },
  { header: 'Accesso bloccato', value: (r) => r.locked },
  { header: 'Secondo fattore', value: (r) => r.mfaEnrolled },
  { header: 'E-mail verificata', value: (r) => r.emailVerified },
  { header: 'Telefono verificato', value: (r) => r.phoneVerified },
  { header: 'Ultimo accesso', value: (r) => (r.lastLoginAt ? new Date(r.lastLoginAt) : null) },
  { header: 'Creato il', value: (r) => new Date(r.createdAt) },
];

/** The user a route is about: unknown → 404 before any permission answer. */
function userOf(request: RequestWithParams<{ userId: number }>) {
  const { userId } = request.params;
  return repo.findUserResource(request.server.db, userId).then((resource) => {
    if (!resource) throw service.notFound();
    return resource;
  });
}

async function detailOf(request: FastifyRequest, userId: number) {
  const user = await repo.findUserDetail(request.server.db, userId, request.server.clock.now());
  if (!user) throw service.notFound();
  return user;
}

/**
 * Users of the portal (product §4 `/portale/utenti`). The contracts carry the permissions: `read:user`
 * lists, exports and opens them (`user.index` too); every write needs `create:`, `update:` or
 * `manage:user` and is audited.
 */
export async function usersRoutes(app: FastifyInstance) {
  registerEndpoint(app, listUsers, {}, (request) => repo.listUsers(app.db, request.query, app.clock.now()));

  registerEndpoint(app, exportUsers, {}, async (request, reply) => {
    const { format, ...filters } = request.query;
    const now = app.clock.now();
    const total = await repo.countUsers(app.db, filters, now);
    return sendExport(reply, {
      format,
      name: 'utenti',
      sheetName: 'Utenti',
      columns: EXPORT_COLUMNS,
      total,
      today: now,
      produce: (write) =>
        forEachBatch(app.db, repo.userListQuery(app.db, filters, now), repo.toUserSummary, write),
    });
  });

  registerEndpoint(app, getUser, { resource: userOf }, (request) => detailOf(request, request.params.userId));

  registerEndpoint(app, createUser, {}, async (request) =>
    detailOf(request, await service.createUser(serviceContextOf(request), request.body)),
  );

  registerEndpoint(app, updateUser, { resource: userOf }, async (request) => {
    await service.updateUser(serviceContextOf(request), request.params.userId, request.body);
    return detailOf(request, request.params.userId);
  });

  for (const action of USER_ACTIONS) {
    registerEndpoint(app, USER_ACTION_ENDPOINTS[action], { resource: userOf }, async (request) => {
      const message = await runUserAction(serviceContextOf(request), request.params.userId, action);
      return { message, user: await detailOf(request, request.params.userId) };
    });
  }
}
