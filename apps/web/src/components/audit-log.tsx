import type { AuditEntry } from '@portale/shared/registry';
import { formatNumber, formatShortDateTime } from '../lib/format.ts';

interface AuditLogProps {
  entries: readonly AuditEntry[];
  total: number;
  /** The total is an estimate (more than a thousand entries, decision 033): said "circa". */
  totalApproximate?: boolean;
  /** Italian names of the record's fields (`postalCode` → "CAP"). */
  fieldLabels: Record<string, string>;
  /** Italian names of the actions (`institute.update` → "Modifica dei dati"). */
  actionLabels?: Record<string, string>;
  /** Italian names of a field's stored values (`adhesionState`: `adesione_firmata` → "Adesione firmata"). */
  valueLabels?: Record<string, Record<string, string>>;
  headingId: string;
}

function show(value: unknown, labels?: Record<string, string>): string {
  if (value === null || value === undefined || value === '') return '(vuoto)';
  if (typeof value === 'boolean') return value ? 'sì' : 'no';
  if (typeof value === 'string' && labels?.[value]) return labels[value];
  if (Array.isArray(value))
    return value.length
      ? value.map((v) => (typeof v === 'string' && labels?.[v]) || String(v)).join(', ')
      : '(nessuno)';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The fields an entry changed, with their value before and after. */
export function changesOf(
  entry: Pick<AuditEntry, 'before' | 'after'>,
): { field: string; before: unknown; after: unknown }[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]))
    .map((field) => ({ field, before: before[field], after: after[field] }));
}

/** The append-only audit of a record, newest first: when, who, what, and each field before → after. */
export function AuditLog({
  entries,
  total,
  totalApproximate,
  fieldLabels,
  actionLabels = {},
  valueLabels = {},
  headingId,
}: AuditLogProps) {
  if (entries.length === 0) return <p>Nessuna modifica registrata.</p>;
  return (
    <div className="table-responsive-md">
      <table className="table data-table" aria-labelledby={headingId} data-testid="audit-log">
        <caption className="caption-top">
          {total > entries.length
            ? `Le ${formatNumber(entries.length)} modifiche più recenti su ${totalApproximate ? 'circa ' : ''}${formatNumber(total)}.`
            : `${formatNumber(total)} ${total === 1 ? 'modifica' : 'modifiche'}, dalla più recente.`}
        </caption>
        <thead>
          <tr>
            <th scope="col">Data</th>
            <th scope="col">Autore</th>
            <th scope="col">Operazione</th>
            <th scope="col">Modifiche</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => {
            const changes = changesOf(entry);
            return (
              <tr key={entry.id}>
                <td data-label="Data">
                  <time dateTime={entry.at}>{formatShortDateTime(entry.at)}</time>
                </td>
                <td data-label="Autore">{entry.actor ? entry.actor.name : 'Sistema'}</td>
                <td data-label="Operazione">{actionLabels[entry.action] ?? entry.action}</td>
                <td data-label="Modifiche">
                  {changes.length === 0 ? (
                    '—'
                  ) : (
                    <ul className="list-unstyled mb-0 audit-change">
                      {changes.map((c) => (
                        <li key={c.field}>
                          <span className="fw-semibold">{fieldLabels[c.field] ?? c.field}</span>:{' '}
                          <del>{show(c.before, valueLabels[c.field])}</del>
                          <span aria-hidden="true"> → </span>
                          <span className="visually-hidden"> diventa </span>
                          <ins>{show(c.after, valueLabels[c.field])}</ins>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
