import type { ProgressResponse } from '@portale/shared/progress';
import { formatNumber } from '../../lib/format.ts';
import { labelOf, type SectionDef } from './progress-sections.ts';

const FIRST_HEADER = { week: 'Settimana', region: 'Regione', state: 'Stato di adesione' } as const;

/** The data table of one chart: the same figures, per week (new and running total), region or state. */
export function ProgressTable({ data, section }: { data: ProgressResponse; section: SectionDef }) {
  const captionId = `tabella-${section.id}`;
  const weekly = data.groupBy === 'week';
  return (
    <div className="table-responsive" tabIndex={0} role="region" aria-labelledby={captionId}>
      <table className="table table-sm" data-testid={`progress-table-${section.id}`}>
        <caption id={captionId} className="caption-top">
          {section.title}: i dati del grafico{weekly ? ' (nuovi nella settimana e totale progressivo)' : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">{FIRST_HEADER[data.groupBy]}</th>
            {section.metrics.flatMap((m) =>
              weekly
                ? [
                    <th key={`${m}-new`} scope="col" className="text-end">
                      {labelOf(data, m)}: nuovi
                    </th>,
                    <th key={`${m}-tot`} scope="col" className="text-end">
                      {labelOf(data, m)}: totale
                    </th>,
                  ]
                : [
                    <th key={m} scope="col" className="text-end">
                      {labelOf(data, m)}
                    </th>,
                  ],
            )}
          </tr>
        </thead>
        <tbody>
          {data.rows.map((r) => (
            <tr key={r.key} data-key={r.key}>
              <th scope="row" className="fw-normal text-nowrap">
                {r.label}
              </th>
              {section.metrics.flatMap((m) =>
                weekly
                  ? [
                      <td key={`${m}-new`} className="text-end" data-metric={m}>
                        {formatNumber(r.values[m] ?? 0)}
                      </td>,
                      <td key={`${m}-tot`} className="text-end" data-metric={`${m}-total`}>
                        {formatNumber(r.cumulative?.[m] ?? 0)}
                      </td>,
                    ]
                  : [
                      <td key={m} className="text-end" data-metric={m}>
                        {formatNumber(r.values[m] ?? 0)}
                      </td>,
                    ],
              )}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{weekly ? 'Nel periodo' : 'Totale'}</th>
            {section.metrics.flatMap((m) =>
              weekly
                ? [
                    <td key={`${m}-new`} className="text-end fw-bold">
                      {formatNumber(data.totals[m] ?? 0)}
                    </td>,
                    <td key={`${m}-tot`} className="text-end fw-bold">
                      {formatNumber(data.rows.at(-1)?.cumulative?.[m] ?? 0)}
                    </td>,
                  ]
                : [
                    <td key={m} className="text-end fw-bold">
                      {formatNumber(data.totals[m] ?? 0)}
                    </td>,
                  ],
            )}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
