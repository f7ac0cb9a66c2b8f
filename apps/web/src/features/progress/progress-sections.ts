import type { ProgressGroup, ProgressResponse } from '@portale/shared/progress';
import { formatDay, formatNumber } from '../../lib/format.ts';

/** One chart of the page with its table: which figures, drawn how. */
export interface SectionDef {
  id: string;
  title: string;
  metrics: string[];
  kind: 'line' | 'bar';
}

export const SECTIONS: Record<ProgressGroup, SectionDef[]> = {
  week: [
    {
      id: 'istituti',
      title: 'Istituti nel tempo',
      metrics: ['institutesEnrolled', 'institutesSigned', 'institutesActive', 'institutesWithdrawn'],
      kind: 'line',
    },
    { id: 'plessi', title: 'Plessi partecipanti nel tempo', metrics: ['participatingSites'], kind: 'line' },
    {
      id: 'insegnanti',
      title: 'Insegnanti nel tempo',
      metrics: ['teachersRegistered', 'teachersApproved'],
      kind: 'line',
    },
    {
      id: 'visite-risposte',
      title: 'Visite svolte e risposte ai questionari nel tempo',
      metrics: ['visitsDone', 'surveyResponses'],
      kind: 'line',
    },
  ],
  region: [
    {
      id: 'istituti',
      title: 'Istituti per regione nel periodo',
      metrics: ['institutesEnrolled', 'institutesSigned', 'institutesActive', 'institutesWithdrawn'],
      kind: 'bar',
    },
    {
      id: 'plessi-insegnanti',
      title: 'Plessi e insegnanti per regione nel periodo',
      metrics: ['participatingSites', 'teachersRegistered', 'teachersApproved'],
      kind: 'bar',
    },
    {
      id: 'visite-risposte',
      title: 'Visite svolte e risposte ai questionari per regione nel periodo',
      metrics: ['visitsDone', 'surveyResponses'],
      kind: 'bar',
    },
  ],
  state: [
    {
      id: 'istituti',
      title: 'Istituti per stato di adesione alla fine del periodo',
      metrics: ['institutes'],
      kind: 'bar',
    },
    {
      id: 'plessi',
      title: "Plessi per stato di adesione dell'istituto alla fine del periodo",
      metrics: ['schoolSites', 'participatingSites'],
      kind: 'bar',
    },
  ],
};

export function labelOf(data: ProgressResponse, metric: string): string {
  return data.columns.find((c) => c.key === metric)?.label ?? metric;
}

/** Category labels of the chart's axis (weeks as dd/mm). */
export function categoriesOf(data: ProgressResponse): string[] {
  return data.rows.map((r) =>
    data.groupBy === 'week' ? `${r.key.slice(8, 10)}/${r.key.slice(5, 7)}` : r.label,
  );
}

/** The values a chart draws: running totals per week, the period's counts otherwise. */
export function seriesOf(data: ProgressResponse, section: SectionDef) {
  return section.metrics.map((m) => ({
    name: labelOf(data, m),
    values: data.rows.map((r) => (data.groupBy === 'week' ? (r.cumulative?.[m] ?? 0) : (r.values[m] ?? 0))),
  }));
}

/** The chart's text summary (its accessible name too): what a glance at it tells. */
export function summaryOf(data: ProgressResponse, section: SectionDef): string {
  const parts = section.metrics.map((m) => {
    const label = labelOf(data, m);
    if (data.groupBy === 'week') {
      const last = data.rows.at(-1)?.cumulative?.[m] ?? 0;
      return `${label}: ${formatNumber(last)} in tutto al ${formatDay(data.to)}, di cui ${formatNumber(data.totals[m] ?? 0)} nel periodo`;
    }
    const ranked = [...data.rows]
      .filter((r) => (r.values[m] ?? 0) > 0)
      .sort((a, b) => (b.values[m] ?? 0) - (a.values[m] ?? 0));
    const top = ranked.slice(0, 3).map((r) => `${r.label} ${formatNumber(r.values[m] ?? 0)}`);
    return `${label}: ${formatNumber(data.totals[m] ?? 0)} in tutto${top.length ? ` (${top.join(', ')})` : ''}`;
  });
  return `${section.title}. ${parts.join('. ')}.`;
}
