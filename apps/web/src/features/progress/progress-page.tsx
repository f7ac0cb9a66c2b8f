import { lazy, Suspense, useMemo } from 'react';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import {
  exportProgress,
  getProgress,
  PROGRESS_GROUP_LABELS,
  type ProgressResponse,
} from '@portale/shared/progress';
import { getPage } from '@portale/shared/pages';
import { ExportButton } from '../../components/data-table/export-button.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { formatDay } from '../../lib/format.ts';
import { loadList, type ListProblem } from '../../lib/list-loader.ts';
import { ProgressFilters } from './progress-filters.tsx';
import { categoriesOf, SECTIONS, seriesOf, summaryOf } from './progress-sections.ts';
import { ProgressTable } from './progress-table.tsx';

// ECharts arrives only with this page: never on other pages.
const ProgressChart = lazy(() => import('./progress-chart.tsx'));

interface ProgressData {
  query: Record<string, string>;
  data: ProgressResponse | null;
  problem: ListProblem | null;
}

export async function loader({ request }: LoaderFunctionArgs): Promise<ProgressData> {
  void import('./progress-chart.tsx');
  const { query, result, problem } = await loadList(getProgress, request);
  return { query, data: result, problem };
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
        <ProgressChart
          kind={section.kind}
          categories={categories}
          series={series}
          summary={summary}
          height={section.kind === 'bar' && categories.length > 8 ? 520 : 320}
        />
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
      <ProgressFilters
        query={query}
        from={data?.from ?? ''}
        to={data?.to ?? ''}
        errors={problem?.errors ?? {}}
      />
      {problem && (
        <div className="alert alert-danger" role="alert" data-testid="progress-problem">
          {problem.message} Correggi i campi evidenziati.
        </div>
      )}
      {data && (
        <>
          <p className="fw-semibold" role="status" data-testid="progress-period">
            {PROGRESS_GROUP_LABELS[data.groupBy]}, dal {formatDay(data.from)} al {formatDay(data.to)},{' '}
            {data.region ?? 'tutte le regioni'}.
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
            <ExportButton
              endpoint={exportProgress}
              query={query}
              total={data.rows.length}
              fileBase="avanzamento"
            />
          </div>
          {SECTIONS[data.groupBy].map((s, i) => (
            <Section key={`${data.groupBy}-${s.id}`} data={data} index={i} />
          ))}
        </>
      )}
    </>
  );
}
