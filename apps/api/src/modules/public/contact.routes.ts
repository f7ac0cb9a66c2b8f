import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CONTACT_MESSAGES,
  CONTACT_TOPIC_LABELS,
  ContactAcceptedSchema,
  ContactMessageInputSchema,
  PUBLIC_PATHS,
} from '@portale/shared/public';
import type { Db } from '../../db/client.ts';
import { contactMessages } from '../../db/schema/index.ts';
import { HttpError } from '../../lib/http-error.ts';
import { enqueueMessage } from '../messages/outbox.repository.ts';

const ROME_TIME = new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', dateStyle: 'long', timeStyle: 'short' });

/** The contact form: stored and notified to staff through the outbox in one transaction. */
export async function contactRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    PUBLIC_PATHS.contact,
    {
      config: {
        rateLimit: {
          max: app.env.CONTACT_RATE_LIMIT_MAX,
          timeWindow: app.env.CONTACT_RATE_LIMIT_WINDOW_MS,
          errorResponseBuilder: (_req, ctx) =>
            new HttpError(429, 'rate_limited', CONTACT_MESSAGES.rateLimited, { 'retry-after': String(Math.ceil(ctx.ttl / 1000)) }),
        },
      },
      schema: {
        tags: ['public'],
        summary: 'Invia un messaggio allo staff del programma',
        body: ContactMessageInputSchema,
        response: { 202: ContactAcceptedSchema },
      },
    },
    async (request, reply) => {
      const input = request.body;
      // Honeypot: a bot gets the same answer, but nothing is stored or sent.
      if (input.website && input.website.trim() !== '') {
        request.log.info('contact form: honeypot filled, message dropped');
        return reply.status(202).send({ message: CONTACT_MESSAGES.accepted });
      }
      const now = app.clock.now();
      await app.db.transaction(async (tx) => {
        const db = tx as unknown as Db;
        const [row] = await db
          .insert(contactMessages)
          .values({ name: input.name, email: input.email, topic: input.topic, message: input.message, createdAt: now })
          .returning({ id: contactMessages.id });
        const outboxId = await enqueueMessage(db, {
          templateKey: 'email.contatto-staff',
          recipient: app.env.CONTACT_STAFF_EMAIL,
          data: {
            messageId: row!.id,
            when: ROME_TIME.format(now),
            name: input.name,
            email: input.email,
            topicLabel: CONTACT_TOPIC_LABELS[input.topic],
            message: input.message,
          },
          now,
        });
        await db.update(contactMessages).set({ outboxId }).where(eq(contactMessages.id, row!.id));
      });
      return reply.status(202).send({ message: CONTACT_MESSAGES.accepted });
    },
  );
}
