import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigation,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import {
  ACTION_STATE_LABELS,
  ACTION_STATES,
  ACTION_TARGET_LABELS,
  ACTION_TARGETS,
  ACTION_EVIDENCE_LABELS,
  assignActionBulk,
  downloadActionEvidence,
  exportActions,
  getAction,
  getActionModel,
  listActionModels,
  listActions,
  previewActionBulk,
  reviewAction,
  type ActionBulkPreviewResult,
  type ActionBulkResult,
  type ActionDetail,
  type ActionModel,
  type ActionState,
  type ActionSummary,
  type ActionTargetFilter,
} from '@portale/shared/actions';
import { getPage } from '@portale/shared/pages';
import {
  ADHESION_STATE_LABELS,
  ADHESION_STATES,
  PROVINCES_BY_REGION,
  REGIONS,
} from '@portale/shared/registry';
import { REVIEW_STATE_LABELS, REVIEW_STATES } from '@portale/shared/reviews';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar, type SelectFilter } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError, callApi, downloadFile } from '../../lib/api-client.ts';
import { formatBytes, formatCount, formatDate, formatDateTime, formatNumber } from '../../lib/format.ts';
import { failureResult, text, type FieldErrors } from '../../lib/form-data.ts';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { FieldError } from '../../components/form/field.tsx';

const DEFAULT_SORT = 'dueOn';
const DETAIL_PARAM = 'azione';
const ACTION_STATE_BADGES: Record<ActionState, string> = {
  da_fare: 'bg-secondary',
  in_corso: 'bg-primary',
  completata: 'bg-warning',
  verificata: 'bg-success',
};

/** One select of the bulk filter: its label, "all" first, then the options as [value, label]. */
function BulkSelect({
  id,
  name,
  label,
  allLabel,
  options,
  value,
  onChange,
  defaultValue,
}: {
  id: string;
  name: string;
  label: string;
  allLabel: string;
  options: readonly (readonly [string, string])[];
  value?: string;
  onChange?: (value: string) => void;
  defaultValue?: string | undefined;
}) {
  const controlled = onChange
    ? { value, onChange: (e: ChangeEvent<HTMLSelectElement>) => onChange(e.target.value) }
    : { defaultValue: defaultValue ?? '' };
  return (
    <div className="col-md-3">
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <div className="select-wrapper">
        <select id={id} name={name} className="form-select" {...controlled}>
          <option value="">{allLabel}</option>
          {options.map(([optionValue, optionLabel]) => (
            <option key={optionValue} value={optionValue}>
              {optionLabel}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

function StateBadge({ state, overdue }: { state: ActionState; overdue: boolean }) {
  return (
    <>
      <span className={`badge ${ACTION_STATE_BADGES[state]}`}>{ACTION_STATE_LABELS[state]}</span>
      {overdue && <span className="badge bg-danger ms-1">Scaduta</span>}
    </>
  );
}

function DetailLink({ action }: { action: ActionSummary }) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  params.set(DETAIL_PARAM, String(action.id));
  return (
    <Link to={`?${params.toString()}#dettaglio-azione`} preventScrollReset>
      {action.targetName}
    </Link>
  );
}

const column = listColumnHelper<ActionSummary>();
const COLUMNS = [
  column.accessor('targetName', {
    header: 'Destinatario',
    meta: { rowHeader: true },
    cell: (c) => <DetailLink action={c.row.original} />,
  }),
  column.accessor('target', {
    header: 'Tipo',
    enableSorting: false,
    cell: (c) => `${ACTION_TARGET_LABELS[c.getValue()]} · ${c.row.original.targetCode}`,
  }),
  column.accessor('modelTitle', { header: 'Azione' }),
  column.accessor('dueOn', { header: 'Scadenza', cell: (c) => formatDate(c.getValue()) }),
  column.accessor('state', {
    header: 'Stato',
    cell: (c) => <StateBadge state={c.getValue()} overdue={c.row.original.overdue} />,
  }),
  column.accessor('province', { header: 'Provincia', enableSorting: false, cell: (c) => c.getValue() ?? '' }),
];
const SORT_OPTIONS = sortOptionsOf([
  { value: 'dueOn', label: 'Scadenza' },
  { value: 'state', label: 'Stato' },
  { value: 'targetName', label: 'Destinatario' },
  { value: 'modelTitle', label: 'Azione' },
  { value: 'createdAt', label: 'Data di assegnazione' },
]);
const STATIC_FILTERS: SelectFilter[] = [
  {
    name: 'state',
    label: 'Stato',
    anyLabel: 'Tutti gli stati',
    options: ACTION_STATES.map((s) => ({ value: s, label: ACTION_STATE_LABELS[s] })),
  },
  {
    name: 'target',
    label: 'Destinatari',
    anyLabel: 'Tutti',
    options: ACTION_TARGETS.map((t) => ({ value: t, label: ACTION_TARGET_LABELS[t] })),
  },
  {
    name: 'overdue',
    label: 'Scadenza',
    anyLabel: 'Tutte',
    options: [
      { value: 'true', label: 'Scadute' },
      { value: 'false', label: 'Non scadute' },
    ],
  },
];

interface Data extends ListLoaderData<typeof listActions> {
  models: ActionModel[];
  detail: ActionDetail | null;
  detailProblem: string | null;
}

export async function pageData({ request }: LoaderFunctionArgs): Promise<Data> {
  const id = Number(new URL(request.url).searchParams.get(DETAIL_PARAM));
  const [list, models] = await Promise.all([
    loadList(listActions, request),
    callApi(listActionModels, { query: { pageSize: 100, sort: 'title' } } as never, {
      signal: request.signal,
    }),
  ]);
  const base = { ...list, models: models.items, detail: null, detailProblem: null };
  if (!Number.isInteger(id) || id <= 0) return base;
  try {
    return {
      ...base,
      detail: await callApi(getAction, { params: { actionId: id } }, { signal: request.signal }),
    };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404)
      return { ...base, detailProblem: 'L’azione richiesta non esiste.' };
    throw error;
  }
}

interface Outcome {
  intent: string;
  ok?: boolean;
  message?: string;
  errors?: FieldErrors;
  values?: Record<string, string>;
  preview?: ActionBulkPreviewResult;
  done?: ActionBulkResult;
}

const BULK_FIELDS = [
  'modelId',
  'q',
  'region',
  'province',
  'adhesionState',
  'participating',
  'reviewState',
  'expectedCount',
  'dueOn',
] as const;

/** The filter of the bulk form for the model's target: only the fields that apply to it. */
function filterOf(values: Record<string, string>, target: ActionModel['target']): ActionTargetFilter {
  const filter: ActionTargetFilter = {};
  if (values.q?.trim()) filter.q = values.q.trim();
  if (values.region) filter.region = values.region as ActionTargetFilter['region'];
  if (values.province) filter.province = values.province as ActionTargetFilter['province'];
  if (target === 'istituto' && values.adhesionState)
    filter.adhesionState = values.adhesionState as ActionTargetFilter['adhesionState'];
  if (target === 'plesso' && (values.participating === 'true' || values.participating === 'false'))
    filter.participating = values.participating === 'true';
  if (target === 'insegnante' && values.reviewState)
    filter.reviewState = values.reviewState as ActionTargetFilter['reviewState'];
  return filter;
}

export async function action({ request }: ActionFunctionArgs): Promise<Outcome> {
  const form = await request.formData();
  const intent = text(form, 'intent');
  try {
    if (intent === 'verify' || intent === 'send-back') {
      const actionId = Number(text(form, 'actionId'));
      const note = text(form, 'note');
      const result = await callApi(reviewAction, {
        params: { actionId },
        body:
          intent === 'verify'
            ? { to: 'verificata', ...(note.trim() ? { note } : {}) }
            : { to: 'in_corso', note },
      });
      return {
        intent,
        ok: true,
        message:
          result.state === 'verificata'
            ? 'Azione verificata.'
            : 'Azione rimandata al destinatario con la nota.',
      };
    }
    const values: Record<string, string> = {};
    for (const key of BULK_FIELDS) values[key] = text(form, key);
    const modelId = Number(values.modelId);
    if (!modelId)
      return {
        intent,
        values,
        message: 'Controlla i campi evidenziati.',
        errors: { modelId: 'Scegli il modello di azione.' },
      };
    const model = await callApi(getActionModel, { params: { modelId } });
    const filter = filterOf(values, model.target);
    if (intent === 'preview')
      return { intent, values, preview: await callApi(previewActionBulk, { body: { modelId, filter } }) };
    const done = await callApi(assignActionBulk, {
      body: {
        modelId,
        filter,
        expectedCount: Number(values.expectedCount),
        ...(values.dueOn ? { dueOn: values.dueOn } : {}),
      },
    });
    return { intent, values, ok: true, done };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw error;
    return {
      intent,
      values: Object.fromEntries(BULK_FIELDS.map((k) => [k, text(form, k)])),
      ...failureResult(error),
    };
  }
}

const PARTICIPATION_OPTIONS = [
  ['true', 'Solo i plessi partecipanti'],
  ['false', 'Solo i plessi non partecipanti'],
] as const;

/** The filter a count was made with, in words: "istituti · regione Emilia-Romagna · stato di adesione Attivo". */
function countedFilter(values: Record<string, string>, model: ActionModel | undefined): string {
  if (!model) return '';
  const f = filterOf(values, model.target);
  const parts: string[] = [ACTION_TARGET_PLURALS[model.target]];
  if (f.q) parts.push(`nome o codice «${f.q}»`);
  if (f.region) parts.push(`regione ${f.region}`);
  if (f.province) parts.push(`provincia ${f.province}`);
  if (f.adhesionState) parts.push(`stato di adesione ${ADHESION_STATE_LABELS[f.adhesionState]}`);
  if (f.participating !== undefined)
    parts.push(f.participating ? 'solo partecipanti' : 'solo non partecipanti');
  if (model.target === 'insegnante')
    parts.push(
      f.reviewState ? `registrazione ${REVIEW_STATE_LABELS[f.reviewState]}` : 'registrazione approvata',
    );
  return parts.join(' · ');
}

const ACTION_TARGET_PLURALS: Record<ActionModel['target'], string> = {
  istituto: 'istituti',
  plesso: 'plessi',
  insegnante: 'insegnanti',
};

function BulkForm({ models }: { models: ActionModel[] }) {
  const outcome = useActionData<Outcome>();
  const navigation = useNavigation();
  const bulk = outcome && (outcome.intent === 'preview' || outcome.intent === 'apply') ? outcome : undefined;
  const v = bulk?.values ?? {};
  const active = models.filter((m) => m.active);
  const [modelId, setModelId] = useState(v.modelId ?? '');
  const [region, setRegion] = useState(v.region ?? '');
  const model = active.find((m) => String(m.id) === modelId);
  const submittingIntent =
    navigation.state === 'submitting' ? String(navigation.formData?.get('intent') ?? '') : '';
  const busy = submittingIntent === 'preview' || submittingIntent === 'apply';
  const errors = bulk?.errors ?? {};
  const filterError = Object.entries(errors).find(([k]) => k.startsWith('filter') || k === 'targetIds')?.[1];
  const provinces = region
    ? PROVINCES_BY_REGION[region as (typeof REGIONS)[number]]
    : REGIONS.flatMap((r) => PROVINCES_BY_REGION[r]).sort();
  const preview = bulk?.intent === 'preview' ? bulk.preview : undefined;
  // A filter changed after the count: the count no longer describes the form, so no confirmation until a new count.
  const [editedAfter, setEditedAfter] = useState<Outcome | undefined>(undefined);
  const stale = preview !== undefined && editedAfter === outcome;
  const counted =
    bulk?.intent === 'preview' && bulk.preview
      ? countedFilter(
          bulk.values ?? {},
          active.find((m) => String(m.id) === bulk.values?.modelId),
        )
      : '';
  return (
    <section aria-labelledby="assegna-azioni" className="mb-5">
      <h2 id="assegna-azioni" className="h4">
        Assegna azioni
      </h2>
      <p>
        Scegli il modello e i destinatari (ad esempio tutti gli istituti attivi di una regione). Prima conta i
        destinatari, poi conferma: le azioni si creano tutte insieme e chi ha già un’azione dello stesso
        modello la conserva.
      </p>
      <Form
        method="post"
        className="row g-3"
        preventScrollReset
        data-testid="bulk-form"
        onChange={(e) => {
          if ((e.target as unknown as { name?: string }).name !== 'dueOn') setEditedAfter(outcome);
        }}
      >
        <div className="col-md-6">
          <label htmlFor="bulk-model" className="form-label">
            Modello
          </label>
          <div className="select-wrapper">
            <select
              id="bulk-model"
              name="modelId"
              className="form-select"
              value={modelId}
              onChange={(e) => setModelId(e.target.value)}
              aria-invalid={errors.modelId ? true : undefined}
              aria-describedby={errors.modelId ? 'bulk-model-error' : undefined}
            >
              <option value="">Scegli…</option>
              {active.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.title} ({ACTION_TARGET_LABELS[m.target]}, {m.defaultDurationDays} giorni)
                </option>
              ))}
            </select>
          </div>
          <FieldError id="bulk-model" error={errors.modelId} />
        </div>
        <div className="col-md-6">
          <label htmlFor="bulk-q" className="form-label">
            Nome o codice del destinatario
          </label>
          <input id="bulk-q" name="q" className="form-control" maxLength={100} defaultValue={v.q ?? ''} />
        </div>
        <BulkSelect
          id="bulk-region"
          name="region"
          label="Regione"
          allLabel="Tutte le regioni"
          options={REGIONS.map((r) => [r, r])}
          value={region}
          onChange={setRegion}
        />
        <BulkSelect
          id="bulk-province"
          name="province"
          label="Provincia"
          allLabel="Tutte le province"
          options={provinces.map((p) => [p, p])}
          defaultValue={v.province}
          key={region}
        />
        {model?.target === 'istituto' && (
          <BulkSelect
            id="bulk-adhesion"
            name="adhesionState"
            label="Stato di adesione"
            allLabel="Tutti"
            options={ADHESION_STATES.map((st) => [st, ADHESION_STATE_LABELS[st]])}
            defaultValue={v.adhesionState}
          />
        )}
        {model?.target === 'plesso' && (
          <BulkSelect
            id="bulk-participating"
            name="participating"
            label="Partecipazione"
            allLabel="Tutti i plessi"
            options={PARTICIPATION_OPTIONS}
            defaultValue={v.participating}
          />
        )}
        {model?.target === 'insegnante' && (
          <BulkSelect
            id="bulk-review"
            name="reviewState"
            label="Stato della registrazione"
            allLabel="Solo approvate"
            options={REVIEW_STATES.filter((st) => st !== 'respinta').map((st) => [
              st,
              REVIEW_STATE_LABELS[st],
            ])}
            defaultValue={v.reviewState}
          />
        )}
        <div className="col-md-3 d-flex align-items-end">
          <button
            type="submit"
            name="intent"
            value="preview"
            className="btn btn-outline-primary"
            disabled={busy}
          >
            Conta i destinatari
          </button>
        </div>
        <FieldError id="bulk-filter" error={filterError} />
        {preview && stale && (
          <div className="col-12" data-testid="bulk-preview">
            <div className="alert alert-warning" role="status">
              <p className="mb-0">
                Hai cambiato il modello o i filtri dopo il conteggio: conta di nuovo i destinatari prima di
                confermare.
              </p>
            </div>
          </div>
        )}
        {preview && !stale && (
          <div className="col-12" data-testid="bulk-preview">
            <div className="alert alert-info" role="status">
              <p className="mb-1" data-testid="bulk-preview-filter">
                Destinatari contati: {counted}.
              </p>
              <p className="mb-2">
                <strong>{formatCount(preview.matched, 'destinatario', 'destinatari')}</strong>{' '}
                {preview.matched === 1 ? 'corrisponde' : 'corrispondono'}:{' '}
                {formatCount(preview.toCreate, 'nuova azione', 'nuove azioni')} da creare,{' '}
                {formatNumber(preview.existing)} già presenti.
              </p>
              {preview.toCreate > 0 ? (
                <div className="row g-3 align-items-end">
                  <input type="hidden" name="expectedCount" value={preview.matched} />
                  <div className="col-md-4">
                    <label htmlFor="bulk-due" className="form-label">
                      Scadenza
                    </label>
                    <input
                      id="bulk-due"
                      name="dueOn"
                      type="date"
                      className="form-control"
                      defaultValue={preview.dueOn}
                      aria-describedby="bulk-due-hint"
                    />
                    <p id="bulk-due-hint" className="small mb-0">
                      Proposta dal modello: {formatDate(preview.dueOn)}.
                    </p>
                  </div>
                  <div className="col-md-8">
                    <button
                      type="submit"
                      name="intent"
                      value="apply"
                      className="btn btn-primary"
                      disabled={busy}
                    >
                      Conferma: crea {formatCount(preview.toCreate, 'azione', 'azioni')}
                    </button>
                  </div>
                </div>
              ) : (
                <p className="mb-0">Nessuna azione nuova da creare: cambia il modello o il filtro.</p>
              )}
            </div>
          </div>
        )}
      </Form>
      <div role="status" data-testid="bulk-result" className="mt-3">
        {busy && (
          <div className="d-flex align-items-center gap-2" aria-busy="true">
            <span className="spinner-border spinner-border-sm" aria-hidden="true" />
            <span>
              {submittingIntent === 'apply'
                ? 'Assegnazione in corso: le azioni vengono create in un’unica operazione…'
                : 'Conteggio dei destinatari in corso…'}
            </span>
          </div>
        )}
        {!busy && bulk?.done && (
          <div className="alert alert-success mb-0">
            {formatCount(bulk.done.created, 'azione creata', 'azioni create')},{' '}
            {formatNumber(bulk.done.existing)} già presenti. Scadenza: {formatDate(bulk.done.dueOn)}.
          </div>
        )}
      </div>
      {!busy && bulk?.message && !bulk.ok && (
        <div className="alert alert-danger mt-3" role="alert">
          {bulk.message}
        </div>
      )}
    </section>
  );
}

function ActionDetailPanel({ detail, closeHref }: { detail: ActionDetail; closeHref: string }) {
  const outcome = useActionData<Outcome>();
  const review =
    outcome && (outcome.intent === 'verify' || outcome.intent === 'send-back') ? outcome : undefined;
  const [problem, setProblem] = useState<string | null>(null);
  const busy = useNavigation().state === 'submitting';
  // Opened from a row far below: bring the panel into view and move the focus to its heading.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus({ preventScroll: true });
  }, [detail.id]);
  const download = () => {
    setProblem(null);
    downloadFile(downloadActionEvidence, { params: { actionId: detail.id } }, undefined, {
      fallbackName: detail.evidenceFile?.name ?? 'prova',
    }).catch((e: Error) => setProblem(e.message));
  };
  return (
    <section
      aria-labelledby="dettaglio-azione"
      className="mb-5 p-3 border rounded"
      data-testid="action-detail"
    >
      <h2 id="dettaglio-azione" className="h4" tabIndex={-1} ref={heading}>
        {detail.modelTitle}: {detail.targetName}
      </h2>
      <dl className="row mb-3">
        <dt className="col-sm-4">Destinatario</dt>
        <dd className="col-sm-8">
          {ACTION_TARGET_LABELS[detail.target]} · {detail.targetCode}
          {detail.province ? ` · ${detail.province}` : ''}
        </dd>
        <dt className="col-sm-4">Stato</dt>
        <dd className="col-sm-8">
          <StateBadge state={detail.state} overdue={detail.overdue} />
        </dd>
        <dt className="col-sm-4">Scadenza</dt>
        <dd className="col-sm-8">{formatDate(detail.dueOn)}</dd>
        <dt className="col-sm-4">Cosa fare</dt>
        <dd className="col-sm-8">{detail.description || '—'}</dd>
        <dt className="col-sm-4">Prova richiesta</dt>
        <dd className="col-sm-8">{ACTION_EVIDENCE_LABELS[detail.evidence]}</dd>
        {detail.completedAt && (
          <>
            <dt className="col-sm-4">Completata</dt>
            <dd className="col-sm-8">
              {formatDateTime(detail.completedAt)}
              {detail.completedBy ? ` da ${detail.completedBy.firstName} ${detail.completedBy.lastName}` : ''}
            </dd>
          </>
        )}
        {detail.evidenceText && (
          <>
            <dt className="col-sm-4">Testo di prova</dt>
            <dd className="col-sm-8" style={{ whiteSpace: 'pre-wrap' }}>
              {detail.evidenceText}
            </dd>
          </>
        )}
        {detail.evidenceFile && (
          <>
            <dt className="col-sm-4">File di prova</dt>
            <dd className="col-sm-8">
              <button type="button" className="btn btn-sm btn-outline-primary" onClick={download}>
                Scarica {detail.evidenceFile.name} ({formatBytes(detail.evidenceFile.sizeBytes)})
              </button>
            </dd>
          </>
        )}
        {detail.staffNote && (
          <>
            <dt className="col-sm-4">Nota dello staff</dt>
            <dd className="col-sm-8">{detail.staffNote}</dd>
          </>
        )}
        {detail.verifiedAt && (
          <>
            <dt className="col-sm-4">Verificata</dt>
            <dd className="col-sm-8">
              {formatDateTime(detail.verifiedAt)}
              {detail.verifiedBy ? ` da ${detail.verifiedBy.firstName} ${detail.verifiedBy.lastName}` : ''}
            </dd>
          </>
        )}
      </dl>
      {problem && (
        <div className="alert alert-danger" role="alert">
          {problem}
        </div>
      )}
      {detail.state === 'completata' && (
        <Form method="post" preventScrollReset className="mb-3" data-testid="review-form">
          <input type="hidden" name="actionId" value={detail.id} />
          <label htmlFor="review-note" className="form-label">
            Nota per il destinatario (obbligatoria per rimandare indietro)
          </label>
          <textarea
            id="review-note"
            name="note"
            className="form-control mb-2"
            rows={2}
            maxLength={2000}
            aria-invalid={review?.errors?.note ? true : undefined}
            aria-describedby={review?.errors?.note ? 'review-note-error' : undefined}
          />
          <FieldError id="review-note" error={review?.errors?.note} />
          <div className="d-flex flex-wrap gap-2 mt-2">
            <button type="submit" name="intent" value="verify" className="btn btn-success" disabled={busy}>
              Verifica
            </button>
            <button
              type="submit"
              name="intent"
              value="send-back"
              className="btn btn-outline-danger"
              disabled={busy}
            >
              Rimanda indietro
            </button>
          </div>
        </Form>
      )}
      <div role="status">{review?.ok && <div className="alert alert-success">{review.message}</div>}</div>
      {review && !review.ok && review.message && (
        <div className="alert alert-danger" role="alert">
          {review.message}
        </div>
      )}
      <Link to={closeHref} preventScrollReset>
        Chiudi il dettaglio
      </Link>
    </section>
  );
}

/** Staff: every action (list pattern, overdue filter), the bulk assignment and the verification of evidence. */
export function Component() {
  const { query, result, problem, models, detail, detailProblem } = useLoaderData<Data>();
  const page = getPage('portal.actions');
  const location = useLocation();
  const closeParams = new URLSearchParams(location.search);
  closeParams.delete(DETAIL_PARAM);
  const modelFilter: SelectFilter = {
    name: 'modelId',
    label: 'Modello',
    anyLabel: 'Tutti i modelli',
    options: models.map((m) => ({ value: String(m.id), label: m.title })),
  };
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      {detail && (
        <ActionDetailPanel key={detail.id} detail={detail} closeHref={`?${closeParams.toString()}`} />
      )}
      {detailProblem && (
        <div className="alert alert-warning" role="alert">
          {detailProblem}
        </div>
      )}
      <BulkForm models={models} />
      <h2 className="h4">Elenco delle azioni</h2>
      <FilterBar
        label="Cerca nelle azioni"
        query={query}
        search={{
          label: 'Cerca',
          hint: 'Nome o codice meccanografico dell’istituto o del plesso, nome o e-mail dell’insegnante.',
        }}
        geography
        selects={[modelFilter, ...STATIC_FILTERS]}
        sortOptions={SORT_OPTIONS}
        defaultSort={DEFAULT_SORT}
        errors={problem?.errors}
      />
      <ListResults
        query={query}
        result={result}
        problem={problem}
        caption="Azioni"
        columns={COLUMNS}
        defaultSort={DEFAULT_SORT}
        nouns={{ one: 'azione trovata', many: 'azioni trovate' }}
        noMatch="Nessuna azione corrisponde alla ricerca e ai filtri."
        exportEndpoint={exportActions}
        exportName="azioni"
      />
    </>
  );
}
