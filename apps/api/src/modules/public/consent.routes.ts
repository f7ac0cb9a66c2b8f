import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ConsentRecordInputSchema, ConsentRecordedSchema, PUBLIC_PATHS } from '@portale/shared/public';
import { consentRecords } from '../../db/schema/index.ts';

/** Proof of each cookie choice (GDPR 7(1)): pseudonymous id, policy version, choices, time; never the IP. */
export async function consentRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    PUBLIC_PATHS.consents,
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['public'],
        summary: 'Registra una scelta sui cookie',
        body: ConsentRecordInputSchema,
        response: { 201: ConsentRecordedSchema },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const [row] = await app.db
        .insert(consentRecords)
        .values({
          anonymousId: input.anonymousId,
          policyVersion: input.policyVersion,
          decision: input.decision,
          enabledIds: [...new Set(input.enabledIds)],
          decidedAt: new Date(input.decidedAt),
          recordedAt: app.clock.now(),
        })
        .returning({ id: consentRecords.id });
      return reply.status(201).send({ id: row!.id });
    },
  );
}
