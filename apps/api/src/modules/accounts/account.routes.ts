import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import {
  ACCOUNT_PATHS,
  AccountProfileSchema,
  DELETION_REQUEST_ANSWER,
  DeletionRequestBodySchema,
  DeletionRequestResponseSchema,
  UpdateProfileBodySchema,
} from '@portale/shared/accounts';
import type { Db } from '../../db/client.ts';
import { deletionRequests, schoolSites, teacherProfiles, users } from '../../db/schema/index.ts';
import { writeAudit } from '../../lib/audit.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { authOf, requireAuth } from '../../plugins/authorization.ts';
import { enqueueMessage } from '../messages/outbox.repository.ts';
import { exportAccountData } from './account-export.repository.ts';
import { findAccountProfile } from './account-profile.repository.ts';
import { formatRomeDateTime } from './format.ts';

export async function accountRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = requireAuth();
  const notFound = () => new HttpError(404, 'not_found', 'Account non trovato.');

  r.get(ACCOUNT_PATHS.accountProfile, { preHandler, schema: { tags: ['accounts'], summary: 'Il profilo dell’utente e cosa manca per completare la registrazione', response: { 200: AccountProfileSchema } } }, async (request) => {
    return (await findAccountProfile(app.db, authOf(request).user.id)) ?? Promise.reject(notFound());
  });

  r.patch(
    ACCOUNT_PATHS.accountProfile,
    { preHandler, schema: { tags: ['accounts'], summary: 'Completa i dati mancanti (codice fiscale, plesso, materie)', body: UpdateProfileBodySchema, response: { 200: AccountProfileSchema } } },
    async (request) => {
      const userId = authOf(request).user.id;
      const now = app.clock.now();
      const { taxCode, schoolSiteId, subjects } = request.body;
      if (schoolSiteId && !(await app.db.select({ id: schoolSites.id }).from(schoolSites).where(eq(schoolSites.id, schoolSiteId)))[0]) {
        throw fieldError('schoolSiteId', 'Il plesso scelto non esiste.');
      }
      await app.db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        if (taxCode) await tx.update(users).set({ taxCode, updatedAt: now }).where(eq(users.id, userId));
        if (schoolSiteId || subjects) {
          await tx
            .update(teacherProfiles)
            .set({ ...(schoolSiteId ? { schoolSiteId } : {}), ...(subjects ? { subjects } : {}), updatedAt: now })
            .where(eq(teacherProfiles.userId, userId));
        }
        const fields = Object.keys(request.body);
        await writeAudit(tx, { action: 'account.profile.updated', actorUserId: userId, entity: 'user', entityId: userId, after: { fields }, ip: request.ip }, now);
      });
      return (await findAccountProfile(app.db, userId)) ?? Promise.reject(notFound());
    },
  );

  r.get(ACCOUNT_PATHS.accountExport, { preHandler, schema: { tags: ['accounts'], summary: 'Scarica tutti i tuoi dati (JSON)' } }, async (request, reply) => {
    const userId = authOf(request).user.id;
    const data = await exportAccountData(app.db, userId);
    if (!data) throw notFound();
    await app.audit({ action: 'account.exported', actorUserId: userId, entity: 'user', entityId: userId, ip: request.ip });
    const day = app.clock.now().toISOString().slice(0, 10);
    reply.header('content-disposition', `attachment; filename="portale-scuole-dati-${day}.json"`);
    return { exportedAt: app.clock.now().toISOString(), ...data };
  });

  r.post(
    ACCOUNT_PATHS.accountDeletionRequest,
    { preHandler, schema: { tags: ['accounts'], summary: 'Chiede la cancellazione dell’account (completata dallo staff)', body: DeletionRequestBodySchema, response: { 202: DeletionRequestResponseSchema } } },
    async (request, reply) => {
      const { user } = authOf(request);
      const now = app.clock.now();
      const [open] = await app.db.select().from(deletionRequests).where(and(eq(deletionRequests.userId, user.id), eq(deletionRequests.state, 'ricevuta')));
      const requestedAt =
        open?.createdAt ??
        (await app.db.transaction(async (txRaw) => {
          const tx = txRaw as unknown as Db;
          const [row] = await tx.insert(deletionRequests).values({ userId: user.id, reason: request.body.reason ?? null, createdAt: now }).returning();
          await enqueueMessage(tx, { templateKey: 'email.cancellazione-richiesta', recipient: user.email, data: { firstName: user.firstName, when: formatRomeDateTime(now) }, now });
          await writeAudit(tx, { action: 'account.deletion_requested', actorUserId: user.id, entity: 'deletion_request', entityId: row!.id, ip: request.ip }, now);
          return row!.createdAt;
        }));
      return reply.status(202).send({ status: 'received' as const, requestedAt: requestedAt.toISOString(), message: DELETION_REQUEST_ANSWER });
    },
  );
}
