import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import type { PermissionCheck } from '../auth/permissions.ts';
import { ADHESION_STATES, TEACHER_REVIEW_STATES } from '../registry/registry.constants.ts';

/**
 * Who is told on the staff home that a portal-wide hourly ceiling was reached: the platform's
 * administrator (the super-admin alone holds this grant).
 */
export const SEES_CEILING_ALERTS: PermissionCheck = 'update:template';

/** A portal-wide hourly ceiling (SMS codes, registrations, e-mails, contact, wrong access codes) reached in the last 24 hours. */
export const CeilingAlertSchema = z.object({
  ceiling: z.string(),
  /** What is counted, in Italian ("codici via SMS"). */
  label: z.string(),
  max: z.number().int(),
  /** `refuse`: the portal refused such requests until the hour ended; `alert`: staff were alerted, real users went on. */
  past: z.enum(['refuse', 'alert']),
  /** What happened past it, in Italian ("I codici via SMS a nuovi numeri sono stati rifiutati…"). */
  consequence: z.string(),
  reachedAt: z.string(),
});
export type CeilingAlert = z.infer<typeof CeilingAlertSchema>;

/** The staff home's key figures: live counts, each linking into a filtered list. */
export const DashboardSummarySchema = z.object({
  institutesTotal: z.number().int(),
  institutesByAdhesionState: z.record(z.enum(ADHESION_STATES), z.number().int()),
  schoolSitesTotal: z.number().int(),
  participatingSchoolSites: z.number().int(),
  teachersTotal: z.number().int(),
  teachersByReviewState: z.record(z.enum(TEACHER_REVIEW_STATES), z.number().int()),
  /** What waits for a staff decision, by review queue. */
  awaitingReview: z.object({ adesioni: z.number().int(), insegnanti: z.number().int() }),
  /** Ceilings reached in the last 24 hours, newest first: only for `SEES_CEILING_ALERTS`, empty for other staff. */
  ceilingAlerts: z.array(CeilingAlertSchema),
  at: z.string(),
});
export type DashboardSummary = z.infer<typeof DashboardSummarySchema>;

export const getDashboardSummary = defineEndpoint({
  method: 'GET',
  path: '/api/dashboard/summary',
  permission: 'read:dashboard',
  tag: 'dashboard',
  summary: 'Cifre chiave del programma per la home dello staff',
  response: DashboardSummarySchema,
});
