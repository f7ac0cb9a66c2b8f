import type { FastifyInstance } from 'fastify';
import { can } from '@portale/shared/auth';
import { getDashboardSummary, SEES_CEILING_ALERTS, type CeilingAlert } from '@portale/shared/dashboard';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { authOf } from '../../plugins/authorization.ts';
import { globalCaps } from '../../plugins/rate-limits.ts';
import { ceilingsReachedSince, summarise } from './dashboard.repository.ts';

const DAY_MS = 86_400_000;

/** The staff home's key figures, and for the super-admin the portal-wide ceilings reached in the last 24 hours. */
export async function dashboardRoutes(app: FastifyInstance) {
  const caps = new Map(globalCaps(app.env).map((cap) => [cap.name as string, cap]));
  registerEndpoint(app, getDashboardSummary, {}, async (request) => {
    const now = app.clock.now();
    let alerts: CeilingAlert[] = [];
    if (can(authOf(request).user, SEES_CEILING_ALERTS)) {
      const rows = await ceilingsReachedSince(app.db, new Date(now.getTime() - DAY_MS));
      alerts = rows.map((row) => {
        const cap = caps.get(row.ceiling ?? '');
        const after = (row.after ?? {}) as { max?: number; past?: 'refuse' | 'alert'; consequence?: string };
        return {
          ceiling: row.ceiling ?? '',
          label: cap?.label ?? row.ceiling ?? '',
          max: after.max ?? cap?.max ?? 0,
          past: after.past ?? cap?.past ?? 'refuse',
          consequence: after.consequence ?? cap?.consequence ?? '',
          reachedAt: row.at.toISOString(),
        };
      });
    }
    return summarise(app.db, now, alerts);
  });
}
