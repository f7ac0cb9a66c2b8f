import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { IdParamSchema } from '@portale/shared/validation';
import { users } from '../../db/schema/index.ts';
import { HttpError } from '../../lib/http-error.ts';
import { authOf, requirePage } from '../../plugins/authorization.ts';
import { clearAccountThrottle } from '../auth/login-throttle.ts';

export async function usersRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/users/:userId/unlock',
    {
      preHandler: requirePage('portal.users'),
      schema: {
        tags: ['users'],
        summary: "Sblocca l'accesso di un utente bloccato per troppi tentativi",
        params: z.object({ userId: IdParamSchema }),
      },
    },
    async (request, reply) => {
      const [user] = await app.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, request.params.userId));
      if (!user) throw new HttpError(404, 'not_found', 'Utente non trovato.');
      await clearAccountThrottle(app.db, user.email);
      await app.audit({ action: 'auth.login.unlocked', actorUserId: authOf(request).user.id, entity: 'user', entityId: user.id, ip: request.ip });
      return reply.status(204).send();
    },
  );
}
