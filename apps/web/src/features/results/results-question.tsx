import { useMemo } from 'react';
import { Link } from 'react-router';
import {
  QUESTION_TYPE_LABELS,
  RESULTS_MESSAGES,
  RESULTS_METHODOLOGY_PATH,
  RESULTS_MIN_GROUP,
  type QuestionResult,
} from '@portale/shared/surveys';
import { formatDecimal, formatNumber } from '../../lib/format.ts';
import ResultsChart from './results-chart.tsx';

export const formatPercent = (p: number) => `${formatDecimal(p, 1)}%`;

/** The sentence that says what the chart shows (also the chart's accessible name). */
export function summaryOf(q: QuestionResult, respondents: number): string {
  const shown = q.rows.filter((r) => r.count !== null);
  const top = [...shown].sort((a, b) => b.count! - a.count!)[0];
  const parts = [`${q.label} Risposte di ${formatCount(respondents)}.`];
  if (top && top.count! > 0)
    parts.push(
      `La più scelta: «${top.label}», ${formatNumber(top.count!)}${top.percent !== null ? ` (${formatPercent(top.percent)})` : ''}.`,
    );
  parts.push(shown.map((r) => `${r.label}: ${formatNumber(r.count!)}`).join('; ') + '.');
  if (q.protectedRows > 0)
    parts.push(q.protectedRows === 1 ? '1 risposta protetta.' : `${q.protectedRows} risposte protette.`);
  if (q.mean !== null) parts.push(`Media ${formatDecimal(q.mean, 2)} su 5.`);
  return parts.join(' ');
}

function formatCount(n: number) {
  return n === 1 ? '1 persona' : `${formatNumber(n)} persone`;
}

/** One aggregable question: its summary, its chart and its data table (protected rows say so). */
export function QuestionSection({
  question: q,
  respondents,
  minGroup = RESULTS_MIN_GROUP,
}: {
  question: QuestionResult;
  respondents: number;
  /** The threshold in force (the API's `minGroup`). */
  minGroup?: number;
}) {
  const labels = useMemo(() => q.rows.map((r) => r.label), [q]);
  const values = useMemo(() => q.rows.map((r) => r.count), [q]);
  const summary = summaryOf(q, respondents);
  const headingId = `domanda-${q.id}`;
  const noteId = `nota-${q.id}`;
  return (
    <section aria-labelledby={headingId} className="mb-5" data-testid="results-question">
      <h3 id={headingId} className="h4">
        {q.label}
      </h3>
      <p className="small text-muted mb-2">
        {QUESTION_TYPE_LABELS[q.type]}
        {q.type === 'scelta_multipla'
          ? ': ogni persona poteva scegliere più risposte, le percentuali sono sul totale dei rispondenti.'
          : '.'}
      </p>
      <p data-testid="results-summary">{summary}</p>
      <ResultsChart labels={labels} values={values} summary={summary} />
      <div className="table-responsive" tabIndex={0} role="region" aria-labelledby={`tabella-${q.id}`}>
        <table className="table table-sm" data-testid="results-table">
          <caption id={`tabella-${q.id}`} className="caption-top">
            {q.label}: i dati del grafico
          </caption>
          <thead>
            <tr>
              <th scope="col">Risposta</th>
              <th scope="col" className="text-end">
                Persone
              </th>
              <th scope="col" className="text-end">
                % sui rispondenti
              </th>
            </tr>
          </thead>
          <tbody>
            {q.rows.map((r) => (
              <tr key={r.key}>
                <th scope="row" className="fw-normal">
                  {r.label}
                </th>
                {r.count === null ? (
                  <td className="text-end fst-italic" data-protected="true" aria-describedby={noteId}>
                    <abbr title={RESULTS_MESSAGES.protectedCellLabel}>{RESULTS_MESSAGES.protectedCell}</abbr>
                  </td>
                ) : (
                  <td className="text-end">{formatNumber(r.count)}</td>
                )}
                <td className="text-end">{r.percent === null ? '—' : formatPercent(r.percent)}</td>
              </tr>
            ))}
          </tbody>
          {(q.answered !== null || q.mean !== null) && (
            <tfoot>
              {q.answered !== null && (
                <tr>
                  <th scope="row">Totale risposte</th>
                  <td className="text-end fw-bold">{formatNumber(q.answered)}</td>
                  <td />
                </tr>
              )}
              {q.mean !== null && (
                <tr>
                  <th scope="row">Media (da 1 a 5)</th>
                  <td className="text-end fw-bold">{formatDecimal(q.mean, 2)}</td>
                  <td />
                </tr>
              )}
            </tfoot>
          )}
        </table>
      </div>
      {q.protectedRows > 0 && (
        <p id={noteId} className="small" data-testid="results-protected-note">
          {RESULTS_MESSAGES.protectedCellDetail(minGroup)} Per questo non mostriamo nemmeno il totale
          {q.type === 'scala' ? ' e la media' : ''} della domanda.
        </p>
      )}
      <p className="small">
        <Link to={RESULTS_METHODOLOGY_PATH} data-testid="results-methodology-link">
          {RESULTS_MESSAGES.methodologyLink}
        </Link>
        <span className="visually-hidden">: {q.label}</span>
      </p>
    </section>
  );
}
