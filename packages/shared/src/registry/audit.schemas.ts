import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { ExactTotalSchema, listResponseSchema, PaginationSchema } from '../lists/list-query.ts';

/** Entities whose audit staff can read. */
export const AUDITED_ENTITIES = ['institute', 'school-site', 'user', 'teacher'] as const;
export type AuditedEntity = (typeof AUDITED_ENTITIES)[number];

export const AuditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  action: z.string(),
  actor: z.object({ id: z.number().int(), name: z.string(), email: z.string() }).nullable(),
  entity: z.string().nullable(),
  entityId: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditQuerySchema = z
  .object({
    entity: z.enum(AUDITED_ENTITIES, { error: 'Entità non valida.' }),
    entityId: z.coerce
      .number({ error: 'Identificativo non valido.' })
      .int('Identificativo non valido.')
      .positive('Identificativo non valido.')
      .max(Number.MAX_SAFE_INTEGER),
  })
  .extend(PaginationSchema.shape)
  .extend(ExactTotalSchema.shape);

/** The append-only audit of one record, newest first. */
export const listAudit = defineEndpoint({
  method: 'GET',
  path: '/api/audit',
  permission: 'read:audit',
  tag: 'audit',
  summary: "Storico delle modifiche di un'entità, dal più recente",
  query: AuditQuerySchema,
  response: listResponseSchema(AuditEntrySchema),
});
