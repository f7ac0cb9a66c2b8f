import type { FastifyInstance } from 'fastify';
import { CONTACT_MESSAGES, CONTACT_TOPIC_LABELS, sendContactMessage } from '@portale/shared/public';
import { withTransaction } from '../../db/transaction.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { HttpError } from '../../lib/http-error.ts';
import { enqueueMessage } from '../messages/index.ts';
import { insertContactMessage, setContactMessageOutbox } from './contact.repository.ts';

const ROME_TIME = new Intl.DateTimeFormat('it-IT', {
  timeZone: 'Europe/Rome',
  dateStyle: 'long',
  timeStyle: 'short',
});

/** The contact form: stored and notified to staff through the outbox in one transaction. */
export async function contactRoutes(app: FastifyInstance) {
  const config = {
    rateLimit: {
      max: app.env.CONTACT_RATE_LIMIT_MAX,
      timeWindow: app.env.CONTACT_RATE_LIMIT_WINDOW_MS,
      errorResponseBuilder: (_req: unknown, ctx: { ttl: number }) =>
        new HttpError(429, 'rate_limited', CONTACT_MESSAGES.rateLimited, {
          'retry-after': String(Math.ceil(ctx.ttl / 1000)),
        }),
    },
  };

  registerEndpoint(app, sendContactMessage, { config }, async (request) => {
    const input = request.body;
    // Honeypot: a bot gets the same answer, but nothing is stored or sent.
    if (input.website && input.website.trim() !== '') {
      request.log.info('contact form: honeypot filled, message dropped');
      return { message: CONTACT_MESSAGES.accepted };
    }
    const now = app.clock.now();
    await withTransaction(app.db, async (tx) => {
      const messageId = await insertContactMessage(tx, input, now);
      const outboxId = await enqueueMessage(tx, {
        templateKey: 'email.contatto-staff',
        recipient: app.env.CONTACT_STAFF_EMAIL,
        data: {
          messageId,
          when: ROME_TIME.format(now),
          name: input.name,
          email: input.email,
          topicLabel: CONTACT_TOPIC_LABELS[input.topic],
          message: input.message,
        },
        now,
      });
      await setContactMessageOutbox(tx, messageId, outboxId);
    });
    return { message: CONTACT_MESSAGES.accepted };
  });
}
