import type { FastifyInstance } from 'fastify';
import { CONTACT_MESSAGES, sendContactMessage } from '@portale/shared/public';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { HttpError } from '../../lib/http-error.ts';
import { receiveContactMessage } from './contact.service.ts';

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
    await receiveContactMessage(app.db, input, app.env.CONTACT_STAFF_EMAIL, app.clock.now());
    return { message: CONTACT_MESSAGES.accepted };
  });
}
