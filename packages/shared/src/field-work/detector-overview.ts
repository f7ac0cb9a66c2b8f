import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { IdParamSchema } from '../validation/index.ts';
import { DetectorSummarySchema, VisitSchema } from './field-work.schemas.ts';

/** How many of the detector's visits the page shows, the latest first. */
export const DETECTOR_OVERVIEW_VISITS = 50;

/** One of the detector's devices, as it last reported its queue (issue 39, decision 051). */
export const DetectorDeviceSchema = z.object({
  deviceId: z.string(),
  unsent: z.number().int(),
  oldestUnsentAt: z.string().nullable(),
  reportedAt: z.string(),
});

/** A detector's page for staff: the summary, each device's queue, the latest visits, the conflicts. */
export const DetectorOverviewSchema = z.object({
  detector: DetectorSummarySchema,
  devices: z.array(DetectorDeviceSchema),
  visits: z.array(VisitSchema),
  conflicts: z.object({ open: z.number().int(), resolved: z.number().int() }),
});
export type DetectorOverview = z.infer<typeof DetectorOverviewSchema>;

export const getDetectorOverview = defineEndpoint({
  method: 'GET',
  path: '/api/detectors/:userId/overview',
  permission: 'read:detector',
  tag: 'field-work',
  summary:
    'Il rilevatore per lo staff: i resoconti non inviati per dispositivo, le ultime visite, i conflitti da risolvere',
  params: z.object({ userId: IdParamSchema }),
  response: DetectorOverviewSchema,
});
