import { useEffect, useRef, useState } from 'react';
import { romeDateStamp } from '@portale/shared/bookings';
import type { Endpoint } from '@portale/shared/http';
import { EXPORT_FORMATS, type ExportFormat } from '@portale/shared/lists';
import { downloadFile, type DownloadProgress } from '../../lib/api-client.ts';
import { formatBytes, formatNumber } from '../../lib/format.ts';
import { pickQuery, queryKeysOf } from '../../lib/list-loader.ts';

type ExportState =
  | { kind: 'idle' }
  | { kind: 'running'; format: ExportFormat; progress: DownloadProgress | null }
  | { kind: 'done'; format: ExportFormat; progress: DownloadProgress; fileName: string }
  | { kind: 'failed'; message: string };

interface ExportButtonProps {
  /** The list's export endpoint (`download: true`), with the same filters as the list. */
  endpoint: Endpoint;
  /** The list's query as the URL carries it: the export sends exactly its filters and order. */
  query: Record<string, string>;
  /** Rows the list shows in total: the expected row count when the server's header is not readable. */
  total: number;
  /** Start of the file name when the server gives none ("istituti"). */
  fileBase: string;
  /** Path params of the endpoint (the bookings of one slot). */
  params?: Record<string, string | number> | undefined;
}

function percent(p: DownloadProgress): number | null {
  if (p.rows !== null && p.totalRows) return Math.min(100, Math.floor((p.rows / p.totalRows) * 100));
  if (p.totalBytes) return Math.min(100, Math.floor((p.bytes / p.totalBytes) * 100));
  return null;
}

function describe(p: DownloadProgress | null): string {
  if (!p) return 'Preparazione del file…';
  if (p.rows !== null) {
    const of = p.totalRows !== null ? ` su ${formatNumber(p.totalRows)}` : '';
    return `Ricevute ${formatNumber(p.rows)} righe${of} (${formatBytes(p.bytes)})`;
  }
  return `Ricevuti ${formatBytes(p.bytes)}${p.totalBytes ? ` su ${formatBytes(p.totalBytes)}` : ''}`;
}

/** What the live region says: the start, every quarter, the end (not every chunk). */
function announcement(state: ExportState): string {
  switch (state.kind) {
    case 'idle':
      return '';
    case 'failed':
      return `Esportazione non riuscita. ${state.message}`;
    case 'done': {
      const rows = state.progress.rows !== null ? `${formatNumber(state.progress.rows)} righe, ` : '';
      return `Esportazione completata: ${rows}file ${state.fileName} (${formatBytes(state.progress.bytes)}).`;
    }
    case 'running': {
      const pct = state.progress ? percent(state.progress) : null;
      const step = pct === null ? null : Math.floor(pct / 25) * 25;
      return step
        ? `Esportazione ${state.format.toUpperCase()} in corso: ${step}%.`
        : `Esportazione ${state.format.toUpperCase()} in corso.`;
    }
  }
}

/** Downloads what the list shows as CSV or XLSX, with the progress shown and announced. */
export function ExportButton({ endpoint, query, total, fileBase, params }: ExportButtonProps) {
  const [state, setState] = useState<ExportState>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const start = async (format: ExportFormat) => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setState({ kind: 'running', format, progress: null });
    const filters = pickQuery(new URLSearchParams(query), queryKeysOf(endpoint));
    const day = romeDateStamp(new Date());
    try {
      const result = await downloadFile(
        endpoint,
        { ...(params ? { params } : {}), query: { ...filters, format } } as never,
        (progress) => setState({ kind: 'running', format, progress }),
        {
          signal: abort.signal,
          expectedRows: total,
          fallbackName: `${fileBase}-${day}.${format}`,
        },
      );
      setState({ kind: 'done', format, progress: result, fileName: result.fileName });
    } catch (error) {
      if (abort.signal.aborted) setState({ kind: 'failed', message: 'Hai annullato il download.' });
      else
        setState({ kind: 'failed', message: error instanceof Error ? error.message : 'Riprova più tardi.' });
    }
  };

  const running = state.kind === 'running';
  const progress = state.kind === 'running' || state.kind === 'done' ? state.progress : null;
  const pct = progress ? (state.kind === 'done' ? 100 : percent(progress)) : null;
  return (
    <div className="export-button" data-testid="export">
      <div className="d-flex flex-wrap gap-2 align-items-center">
        {EXPORT_FORMATS.map((format) => (
          <button
            key={format}
            type="button"
            className="btn btn-outline-primary btn-sm"
            // While a download runs the buttons are only marked unavailable: a disabled button loses the
            // focus, which would fall to the top of the page (issue 34).
            disabled={total === 0}
            aria-disabled={running || undefined}
            onClick={() => {
              if (!running) void start(format);
            }}
          >
            Esporta {format.toUpperCase()}
          </button>
        ))}
        {running && (
          <button type="button" className="btn btn-link btn-sm" onClick={() => controller.current?.abort()}>
            Annulla
          </button>
        )}
      </div>
      {(running || state.kind === 'done') && (
        <div className="mt-2">
          <div className="progress" style={{ height: 6 }}>
            <div
              className={`progress-bar${pct === null ? ' progress-bar-striped progress-bar-animated w-100' : ''}`}
              role="progressbar"
              aria-label="Avanzamento dell'esportazione"
              aria-valuemin={0}
              aria-valuemax={100}
              {...(pct !== null ? { 'aria-valuenow': pct, style: { width: `${pct}%` } } : {})}
            />
          </div>
          <p className="small mb-0 mt-1" data-testid="export-progress">
            {describe(progress)}
          </p>
        </div>
      )}
      <p className="small mb-0 mt-1" role="status" data-testid="export-status">
        {announcement(state)}
      </p>
    </div>
  );
}
