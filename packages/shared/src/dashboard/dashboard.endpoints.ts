import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { ADHESION_STATES, TEACHER_REVIEW_STATES } from '../registry/registry.constants.ts';

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
