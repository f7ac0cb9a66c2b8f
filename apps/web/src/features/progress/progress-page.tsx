import { lazy, Suspense, useMemo } from 'react';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { exportProgress, getProgress, PROGRESS_FILTER_KEYS, PROGRESS_GROUP_LABELS, type ProgressResponse } from '@portale/shared/progress';
import { getPage } from '@portale/shared/pages';
import { ExportButton } from '../../components/data-table/export-button.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { pickQuery } from '../../lib/list-loader.ts';
import { ProgressFilters } from './progress-filters.tsx';
import { categoriesOf, dayLabel, SECTIONS, seriesOf, summaryOf } from './progress-sections.ts';
import { ProgressTable } from './progress-table.tsx';

// ECharts arrives only with this page: never on other pages.
const ProgressChart = lazy(() => import('./progress-chart.tsx'));

interface ProgressData {
  query: Record<string, string>;
  data: ProgressResponse | null;
  problem: { message: string; errors: Record<string, string> } | null;
}

export async function pageData({ request }: LoaderFunctionArgs): Promise<ProgressData> {
  const query = pickQuery(new URL(request.url).searchParams, PROGRESS_FILTER_KEYS);
  void import('./progress-chart.tsx');
  try {
    const data = await callApi(getProgress, { query } as never, { signal: request.signal });
    return { query, data, problem: null };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 422 || error.status === 400)) {
      const errors: Record<string, string> = {};
      for (const [field, messages] of Object.entries(error.body?.errors ?? {})) if (messages[0]) errors[field] = messages[0];
      return { query, data: null, problem: { message: error.message, errors } };
    }
    throw error;
  }
}

function Section({ data, index }: { data: ProgressResponse; index: number }) {
  const section = SECTIONS[data.groupBy][index]!;
  const categories = useMemo(() => categoriesOf(data), [data]);
  const series = useMemo(() => seriesOf(data, section), [data, section]);
  const summary = summaryOf(data, section);
  const headingId = `grafico-${section.id}`;
  return (
    <section aria-labelledby={headingId} className="mb-5" data-testid={`progress-section-${section.id}`}>
      <h2 id={headingId} className="h4">
        {section.title}
      </h2>
      <p data-testid="progress-summary">{summary}</p>
      <Suspense fallback={<div className="border p-4 mb-3">Caricamento del grafico…</div>}>
        <ProgressChart kind={section.kind} categories={categories} series={series} summary={summary} height={section.kind === 'bar' && categories.length > 8 ? 520 : 320} />
      </Suspense>
      <ProgressTable data={data} section={section} />
    </section>
  );
}

/** Staff: the programme over time, per region and per state: charts, each with its summary and its table. */
export function Component() {
  const { query, data, problem } = useLoaderData<ProgressData>();
  const page = getPage('portal.progress');
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      <ProgressFilters query={query} from={data?.from ?? ''} to={data?.to ?? ''} errors={problem?.errors ?? {}} />
      {problem && (
        <div className="alert alert-danger" role="alert" data-testid="progress-problem">
          {problem.message} Correggi i campi evidenziati.
        </div>
      )}
      {data && (
        <>
          <p className="fw-semibold" role="status" data-testid="progress-period">
            {PROGRESS_GROUP_LABELS[data.groupBy]}, dal {dayLabel(data.from)} al {dayLabel(data.to)}, {data.region ?? 'tutte le regioni'}.
          </p>
          <div className="alert alert-info small" data-testid="progress-notes">
            <ul className="mb-0 ps-3">
              {data.notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          </div>
          <div className="mb-4">
            <h2 className="h6">Esporta le cifre</h2>
            <ExportButton endpoint={exportProgress} query={query} total={data.rows.length} fileBase="avanzamento" />
          </div>
          {SECTIONS[data.groupBy].map((s, i) => (
            <Section key={`${data.groupBy}-${s.id}`} data={data} index={i} />
          ))}
        </>
      )}
    </>
  );
}
