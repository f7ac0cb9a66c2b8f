import { z } from 'zod';

export const CONSENT_DECISIONS = ['accept_all', 'reject', 'custom'] as const;
export type ConsentDecision = (typeof CONSENT_DECISIONS)[number];

/** Proof of a cookie choice: no IP, only a random id the browser keeps. */
export const ConsentRecordInputSchema = z.object({
  anonymousId: z.string().uuid('Identificativo anonimo non valido.'),
  policyVersion: z.string().trim().min(1).max(40),
  decision: z.enum(CONSENT_DECISIONS),
  enabledIds: z.array(z.string().regex(/^[a-z][a-z0-9_-]{1,39}$/)).max(20),
  decidedAt: z.string().datetime({ offset: true }),
});
export type ConsentRecordInput = z.infer<typeof ConsentRecordInputSchema>;
export const ConsentRecordedSchema = z.object({ id: z.number().int().positive() });
