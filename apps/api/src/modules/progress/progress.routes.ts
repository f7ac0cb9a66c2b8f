import type { FastifyInstance } from 'fastify';
import { ADHESION_STATE_LABELS, REGIONS } from '@portale/shared/registry';
import {
  DEFAULT_PROGRESS_DAYS,
  exportProgress,
  getProgress,
  PROGRESS_GROUP_LABELS,
  PROGRESS_METRIC_LABELS,
  PROGRESS_METRICS,
  STATE_METRIC_LABELS,
  STATE_METRICS,
  type ProgressFilters,
  type ProgressResponse,
} from '@portale/shared/progress';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { countByStateKept, countEvents } from './progress.repository.ts';

const romeDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Rome',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const italianDay = new Intl.DateTimeFormat('it-IT', {
  timeZone: 'UTC',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});

const DAY = 86_400_000;
const toDate = (day: string) => new Date(`${day}T00:00:00Z`);
const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const addDays = (day: string, n: number) => dayOf(new Date(toDate(day).getTime() + n * DAY));
/** The Monday of a day's week. */
const mondayOf = (day: string) => addDays(day, -((toDate(day).getUTCDay() + 6) % 7));

/** How some figures are dated: said beside the charts. */
const NOTES = [
  "I plessi partecipanti sono datati con l'iscrizione del loro istituto.",
  'Le visite svolte sono datate con il loro resoconto; le risposte ai questionari con il loro invio (anche quelle anonime con codice di accesso).',
];

/** The programme's figures grouped one way, for a period (Europe/Rome days, both included). */
export async function progressOf(app: FastifyInstance, filters: ProgressFilters): Promise<ProgressResponse> {
  const today = romeDay.format(app.clock.now());
  const to = filters.to ?? today;
  const from = filters.from ?? addDays(to, -DEFAULT_PROGRESS_DAYS);
  const region = filters.region ?? null;
  const base = { groupBy: filters.groupBy, from, to, region, notes: NOTES };
  const metricColumns = PROGRESS_METRICS.map((key) => ({ key, label: PROGRESS_METRIC_LABELS[key] }));
  const zero = () => Object.fromEntries(PROGRESS_METRICS.map((m) => [m, 0])) as Record<string, number>;

  if (filters.groupBy === 'state') {
    const counts = await countByStateKept(app.db, to, filters.region);
    const rows = counts.map((c) => ({
      key: c.state,
      label: ADHESION_STATE_LABELS[c.state],
      values: {
        institutes: c.institutes,
        schoolSites: c.schoolSites,
        participatingSites: c.participatingSites,
      },
    }));
    const totals = Object.fromEntries(
      STATE_METRICS.map((m) => [m, rows.reduce((sum, r) => sum + r.values[m], 0)]),
    );
    return {
      ...base,
      columns: STATE_METRICS.map((key) => ({ key, label: STATE_METRIC_LABELS[key] })),
      rows,
      totals,
    };
  }

  const events = await countEvents(
    app.db,
    { fromDay: from, toDay: to, region: filters.region },
    filters.groupBy,
  );
  const totals = zero();
  if (filters.groupBy === 'region') {
    const byRegion = new Map<string, Record<string, number>>();
    for (const e of events) {
      const values = byRegion.get(e.bucket) ?? zero();
      values[e.metric] = (values[e.metric] ?? 0) + e.n;
      byRegion.set(e.bucket, values);
      totals[e.metric] = (totals[e.metric] ?? 0) + e.n;
    }
    const regions: string[] = filters.region ? [filters.region] : [...REGIONS];
    const rows = regions.map((r) => ({ key: r, label: r, values: byRegion.get(r) ?? zero() }));
    // Teachers who have not said their plesso yet have no region.
    if (byRegion.has('')) rows.push({ key: '', label: 'Regione non indicata', values: byRegion.get('')! });
    return { ...base, columns: metricColumns, rows, totals };
  }

  // Per week: each week of the period, its events and the running totals since the beginning.
  const running = zero();
  const byWeek = new Map<string, Record<string, number>>();
  for (const e of events) {
    if (e.before) running[e.metric] = (running[e.metric] ?? 0) + e.n;
    else {
      const values = byWeek.get(e.bucket) ?? zero();
      values[e.metric] = (values[e.metric] ?? 0) + e.n;
      byWeek.set(e.bucket, values);
      totals[e.metric] = (totals[e.metric] ?? 0) + e.n;
    }
  }
  const rows: ProgressResponse['rows'] = [];
  for (let week = mondayOf(from); week <= to; week = addDays(week, 7)) {
    const values = byWeek.get(week) ?? zero();
    for (const m of PROGRESS_METRICS) running[m] = (running[m] ?? 0) + (values[m] ?? 0);
    rows.push({
      key: week,
      label: `Settimana dal ${italianDay.format(toDate(week))}`,
      values,
      cumulative: { ...running },
    });
  }
  return { ...base, columns: metricColumns, rows, totals };
}

/** The programme's progress: figures per week, region or state, and their export. */
export async function progressRoutes(app: FastifyInstance) {
  registerEndpoint(app, getProgress, {}, (request) => progressOf(app, request.query));

  registerEndpoint(app, exportProgress, {}, async (request, reply) => {
    const { format, ...filters } = request.query;
    const data = await progressOf(app, filters);
    type Row = ProgressResponse['rows'][number];
    const first: ExportColumn<Row> = {
      header:
        filters.groupBy === 'week'
          ? 'Settimana (lunedì)'
          : filters.groupBy === 'region'
            ? 'Regione'
            : 'Stato di adesione',
      value: (r) => (filters.groupBy === 'week' ? r.key : r.label),
      ...(filters.groupBy === 'week' ? { type: 'date' as const } : {}),
    };
    const columns: ExportColumn<Row>[] = [
      first,
      ...data.columns.map((c) => ({ header: c.label, value: (r: Row) => r.values[c.key] ?? 0 })),
    ];
    if (filters.groupBy === 'week')
      columns.push(
        ...data.columns.map((c) => ({
          header: `${c.label} (totale progressivo)`,
          value: (r: Row) => r.cumulative?.[c.key] ?? 0,
        })),
      );
    const name = `avanzamento-${filters.groupBy === 'week' ? 'settimane' : filters.groupBy === 'region' ? 'regioni' : 'stati'}`;
    return sendExport(reply, {
      format,
      name,
      sheetName: PROGRESS_GROUP_LABELS[filters.groupBy],
      columns,
      total: data.rows.length,
      today: app.clock.now(),
      produce: async (write) => void (await write(data.rows)),
    });
  });
}
