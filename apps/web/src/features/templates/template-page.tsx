import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import { buildPath } from '@portale/shared/http';
import { getPage, href } from '@portale/shared/pages';
import {
  exportTemplates,
  getTemplate,
  listTemplates,
  listTemplateVersions,
  previewTemplate,
  restoreTemplateVersion,
  TEMPLATE_CHANNEL_LABELS,
  TEMPLATE_CHANNELS,
  TEMPLATE_MESSAGES,
  TemplateDraftSchema,
  TemplatePreviewSchema,
  updateTemplate,
  type TemplateDetail,
  type TemplatePreview,
  type TemplateSummary,
  type TemplateVersion,
} from '@portale/shared/templates';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar, type SelectFilter } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError, apiRequest, callApi } from '../../lib/api-client.ts';
import { formatNumber, formatShortDateTime } from '../../lib/format.ts';
import { failureResult, text, type FormResult } from '../../lib/form-data.ts';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { FieldError } from '../../components/form/field.tsx';
import { invalidForm } from '../../lib/form-action.ts';

/** The URL param of the template open in the editor (the page has no record route). */
const KEY_PARAM = 'chiave';
const DEFAULT_SORT = 'key';

type Row = TemplateSummary & { id: number };
const editorHref = (key: string) => `${href('portal.templates')}?${KEY_PARAM}=${encodeURIComponent(key)}`;

const column = listColumnHelper<Row>();
const COLUMNS = [
  column.accessor('key', {
    header: 'Chiave',
    meta: { rowHeader: true },
    cell: (c) => <Link to={editorHref(c.getValue())}>{c.getValue()}</Link>,
  }),
  column.accessor('channel', { header: 'Canale', cell: (c) => TEMPLATE_CHANNEL_LABELS[c.getValue()] }),
  column.accessor('subject', {
    header: 'Oggetto o titolo',
    enableSorting: false,
    cell: (c) => c.getValue() ?? '—',
  }),
  column.accessor('version', { header: 'Versione' }),
  column.accessor('updatedAt', {
    header: 'Aggiornato',
    cell: (c) => `${formatShortDateTime(c.getValue())}, ${c.row.original.updatedBy ?? 'sistema'}`,
  }),
];
const SORT_OPTIONS = sortOptionsOf([
  { value: 'key', label: 'Chiave' },
  { value: 'channel', label: 'Canale' },
  { value: 'version', label: 'Versione' },
  { value: 'updatedAt', label: 'Ultimo aggiornamento' },
]);
const FILTERS: SelectFilter[] = [
  {
    name: 'channel',
    label: 'Canale',
    anyLabel: 'Tutti',
    options: TEMPLATE_CHANNELS.map((c) => ({ value: c, label: TEMPLATE_CHANNEL_LABELS[c] })),
  },
];

interface Editor {
  detail: TemplateDetail | null;
  versions: TemplateVersion[];
  key: string;
}
type Data = ListLoaderData<typeof listTemplates> & { editor: Editor | null };

export async function pageData({ request }: LoaderFunctionArgs): Promise<Data> {
  const key = new URL(request.url).searchParams.get(KEY_PARAM)?.trim();
  if (key) {
    try {
      const [detail, versions] = await Promise.all([
        callApi(getTemplate, { params: { key } }, { signal: request.signal }),
        callApi(listTemplateVersions, { params: { key } }, { signal: request.signal }),
      ]);
      return { query: {}, result: null, problem: null, editor: { key, detail, versions: versions.items } };
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 422))
        return { query: {}, result: null, problem: null, editor: { key, detail: null, versions: [] } };
      throw error;
    }
  }
  const list = await loadList(listTemplates, request);
  const offset = list.result ? (list.result.page - 1) * list.result.pageSize : 0;
  const result = list.result && {
    ...list.result,
    items: list.result.items.map((item, i) => ({ ...item, id: offset + i + 1 })),
  };
  return { ...list, result, editor: null } as Data;
}

type Outcome = FormResult & { intent: string; preview?: TemplatePreview; pdf?: Blob };

/** Save a new version, preview a draft, or restore an old version (the intent says which). */
export async function action({ request }: ActionFunctionArgs): Promise<Outcome> {
  const form = await request.formData();
  const intent = text(form, 'intent');
  const key = new URL(request.url).searchParams.get(KEY_PARAM) ?? '';
  try {
    if (intent === 'restore') {
      const from = Number(text(form, 'version'));
      const restored = await callApi(restoreTemplateVersion, { params: { key, version: from } });
      return { intent, ok: true, message: TEMPLATE_MESSAGES.restored(from, restored.version) };
    }
    const hasSubject = form.has('subject');
    const draft = { subject: hasSubject ? text(form, 'subject') : null, textBody: text(form, 'textBody') };
    const parsed = TemplateDraftSchema.safeParse(draft);
    if (!parsed.success) return { intent, ...invalidForm(parsed.error.issues) };
    if (intent === 'preview') {
      const answer = await apiRequest<unknown>(buildPath(previewTemplate.path, { key }), {
        method: 'POST',
        body: draft,
      });
      if (answer instanceof Blob) return { intent, ok: true, pdf: answer };
      return { intent, ok: true, preview: TemplatePreviewSchema.parse(answer) };
    }
    const saved = await callApi(updateTemplate, {
      params: { key },
      body: { ...draft, baseVersion: Number(text(form, 'baseVersion')) },
    });
    return { intent, ok: true, message: TEMPLATE_MESSAGES.saved(saved.version) };
  } catch (error) {
    return { intent, ...failureResult(error) };
  }
}

/** The list of templates (list pattern). */
function TemplateList({ data }: { data: Data }) {
  return (
    <>
      <FilterBar
        label="Cerca nei modelli"
        query={data.query}
        search={{ label: 'Cerca', hint: 'Parte della chiave, dell’oggetto o del testo.' }}
        selects={FILTERS}
        sortOptions={SORT_OPTIONS}
        defaultSort={DEFAULT_SORT}
        errors={data.problem?.errors}
      />
      <ListResults
        query={data.query}
        result={data.result as { items: Row[]; total: number; page: number; pageSize: number } | null}
        problem={data.problem}
        caption="Modelli di e-mail, SMS e documenti"
        columns={COLUMNS}
        defaultSort={DEFAULT_SORT}
        nouns={{ one: 'modello trovato', many: 'modelli trovati' }}
        noMatch="Nessun modello corrisponde alla ricerca e ai filtri."
        exportEndpoint={exportTemplates}
        exportName="modelli"
      />
    </>
  );
}

function fieldProps(id: string, error: string | undefined, hintId?: string) {
  const describedBy = [hintId, error ? `${id}-error` : undefined].filter(Boolean).join(' ');
  return {
    id,
    ...(error ? { 'aria-invalid': true as const } : {}),
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
  };
}

/** A PDF preview as a real file: opened in a new tab or downloaded. */
function PdfPreview({ pdf, templateKey }: { pdf: Blob; templateKey: string }) {
  const url = useMemo(() => URL.createObjectURL(pdf), [pdf]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return (
    <div data-testid="template-preview">
      <p>
        L’anteprima del documento con dati di esempio è pronta ({formatNumber(Math.round(pdf.size / 1024))}{' '}
        kB).
      </p>
      <p className="d-flex flex-wrap gap-2">
        <a className="btn btn-primary" href={url} target="_blank" rel="noopener">
          Apri l’anteprima PDF<span className="visually-hidden"> (si apre in una nuova scheda)</span>
        </a>
        <a className="btn btn-outline-primary" href={url} download={`anteprima-${templateKey}.pdf`}>
          Scarica l’anteprima PDF
        </a>
      </p>
    </div>
  );
}

function Preview({
  outcome,
  templateKey,
  maxLength,
}: {
  outcome: Outcome | undefined;
  templateKey: string;
  maxLength: number;
}) {
  if (outcome?.intent !== 'preview' || !outcome.ok) return null;
  if (outcome.pdf) return <PdfPreview pdf={outcome.pdf} templateKey={templateKey} />;
  const preview = outcome.preview;
  if (!preview) return null;
  if (preview.channel === 'sms') {
    return (
      <div data-testid="template-preview">
        <p className="mb-1">Testo dell’SMS con dati di esempio:</p>
        <p className="border rounded p-3 bg-light" style={{ whiteSpace: 'pre-wrap' }}>
          {preview.text}
        </p>
        <p className="small">
          {formatNumber(preview.length)} caratteri su {formatNumber(maxLength)}.
        </p>
      </div>
    );
  }
  return (
    <div data-testid="template-preview">
      <p>
        <strong>Oggetto:</strong> {preview.subject}
      </p>
      <iframe
        title="Anteprima dell’e-mail con dati di esempio"
        sandbox=""
        srcDoc={preview.html}
        className="w-100 border rounded"
        style={{ height: '28rem' }}
      />
      <details className="mt-2">
        <summary>Versione solo testo dell’e-mail</summary>
        <pre className="border rounded p-3 bg-light" style={{ whiteSpace: 'pre-wrap' }}>
          {preview.text}
        </pre>
      </details>
    </div>
  );
}

/** Inserts `{{name}}` at the caret of the text area (or at its end). */
function insertAt(area: HTMLTextAreaElement, name: string) {
  const token = `{{${name}}}`;
  const start = area.selectionStart ?? area.value.length;
  const end = area.selectionEnd ?? start;
  area.setRangeText(token, start, end, 'end');
  area.dispatchEvent(new Event('input', { bubbles: true }));
  area.focus();
}

function TemplateEditor({ detail, outcome }: { detail: TemplateDetail; outcome: Outcome | undefined }) {
  const body = useRef<HTMLTextAreaElement>(null);
  const [length, setLength] = useState(detail.textBody.length);
  const busy = useNavigation().state === 'submitting';
  const errors = outcome && outcome.intent !== 'restore' ? (outcome.errors ?? {}) : {};
  const isSms = detail.channel === 'sms';
  const subjectLabel = detail.channel === 'pdf' ? 'Titolo del documento' : 'Oggetto';
  return (
    <Form method="post" preventScrollReset key={detail.version} aria-labelledby="editor-title" noValidate>
      <input type="hidden" name="baseVersion" value={detail.version} />
      {!isSms && (
        <div className="form-group">
          <label htmlFor="template-subject" className="active">
            {subjectLabel}
          </label>
          <input
            type="text"
            name="subject"
            className="form-control"
            defaultValue={detail.subject ?? ''}
            {...fieldProps('template-subject', errors.subject)}
          />
          <FieldError id="template-subject" error={errors.subject} />
        </div>
      )}
      <div className="mb-3">
        <label htmlFor="template-body" className="form-label fw-semibold">
          Testo
        </label>
        <p id="template-body-hint" className="small text-muted mb-1">
          {detail.channel === 'email'
            ? 'Testo semplice con un Markdown leggero: una riga vuota separa i paragrafi, **grassetto**, elenchi con «- », collegamenti come [testo]({{link}}). L’HTML scritto qui non viene interpretato.'
            : detail.channel === 'pdf'
              ? 'Una riga che inizia con «## » è un titolo di sezione, una che inizia con «- » un punto elenco, ogni altra riga un paragrafo.'
              : 'Testo semplice dell’SMS.'}{' '}
          Massimo {formatNumber(detail.maxLength)} caratteri: ora {formatNumber(length)}.
        </p>
        <textarea
          ref={body}
          name="textBody"
          rows={isSms ? 4 : 14}
          className="form-control font-monospace"
          defaultValue={detail.textBody}
          onInput={(e) => setLength(e.currentTarget.value.length)}
          {...fieldProps('template-body', errors.textBody, 'template-body-hint')}
        />
        <FieldError id="template-body" error={errors.textBody} />
      </div>
      <fieldset className="mb-4">
        <legend className="h6">Segnaposto disponibili</legend>
        {detail.placeholders.length === 0 ? (
          <p>Questo modello non ha segnaposto.</p>
        ) : (
          <>
            <p className="small text-muted mb-2">
              Premi un segnaposto per inserirlo nel testo, nel punto del cursore. Altri segnaposto non sono
              accettati.
            </p>
            <ul className="list-inline mb-0" data-testid="template-placeholders">
              {detail.placeholders.map((name) => (
                <li key={name} className="list-inline-item mb-2">
                  <button
                    type="button"
                    className="btn btn-outline-secondary btn-xs"
                    onClick={() => body.current && insertAt(body.current, name)}
                  >
                    <span className="visually-hidden">Inserisci </span>
                    <code>{`{{${name}}}`}</code>
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
      </fieldset>
      <div className="d-flex flex-wrap gap-2">
        <button
          type="submit"
          name="intent"
          value="preview"
          className="btn btn-outline-primary"
          disabled={busy}
        >
          Anteprima con dati di esempio
        </button>
        <button type="submit" name="intent" value="save" className="btn btn-primary" disabled={busy}>
          Salva come nuova versione
        </button>
      </div>
    </Form>
  );
}

function VersionHistory({ versions, current }: { versions: TemplateVersion[]; current: number }) {
  const [confirming, setConfirming] = useState<number | null>(null);
  return (
    <div className="table-responsive">
      <table className="table">
        <caption>Versioni del modello, dalla più recente</caption>
        <thead>
          <tr>
            <th scope="col">Versione</th>
            <th scope="col">Salvata il</th>
            <th scope="col">Da</th>
            <th scope="col">Contenuto</th>
            <th scope="col">Azioni</th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.version}>
              <th scope="row">
                {v.version}
                {v.version === current && <span className="badge bg-success ms-2">in uso</span>}
              </th>
              <td>{formatShortDateTime(v.createdAt)}</td>
              <td>
                {v.createdBy ?? 'Sistema (versione predefinita)'}
                {v.restoredFromVersion !== null && (
                  <div className="small">Ripristino della versione {v.restoredFromVersion}</div>
                )}
              </td>
              <td>
                <details>
                  <summary>Mostra il testo</summary>
                  {v.subject && (
                    <p className="mb-1">
                      <strong>Oggetto:</strong> {v.subject}
                    </p>
                  )}
                  <pre className="small mb-0" style={{ whiteSpace: 'pre-wrap' }}>
                    {v.textBody}
                  </pre>
                </details>
              </td>
              <td>
                {v.version === current ? (
                  '—'
                ) : confirming === v.version ? (
                  <Form
                    method="post"
                    preventScrollReset
                    className="d-flex flex-column gap-2"
                    onSubmit={() => setConfirming(null)}
                  >
                    <p className="mb-0 small" id={`restore-${v.version}`}>
                      Ripristinare la versione {v.version}? Sarà copiata in una nuova versione, la{' '}
                      {current + 1}, che andrà subito in uso.
                    </p>
                    <input type="hidden" name="intent" value="restore" />
                    <input type="hidden" name="version" value={v.version} />
                    <div className="d-flex gap-2">
                      <button
                        type="submit"
                        className="btn btn-danger btn-sm"
                        aria-describedby={`restore-${v.version}`}
                      >
                        Conferma il ripristino
                      </button>
                      <button
                        type="button"
                        className="btn btn-outline-secondary btn-sm"
                        onClick={() => setConfirming(null)}
                      >
                        Annulla
                      </button>
                    </div>
                  </Form>
                ) : (
                  <button
                    type="button"
                    className="btn btn-outline-primary btn-sm"
                    onClick={() => setConfirming(v.version)}
                  >
                    Ripristina<span className="visually-hidden"> la versione {v.version}</span>
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function EditorSection({ editor }: { editor: Editor }) {
  const outcome = useActionData<Outcome>();
  const { detail } = editor;
  const back = (
    <p>
      <Link to={href('portal.templates')}>Torna all’elenco dei modelli</Link>
    </p>
  );
  if (!detail) {
    return (
      <>
        {back}
        <div className="alert alert-warning" role="alert">
          {TEMPLATE_MESSAGES.notFound}
        </div>
      </>
    );
  }
  const message =
    outcome?.message && !(outcome.intent === 'preview' && outcome.ok) ? outcome.message : undefined;
  return (
    <>
      {back}
      <h2 id="editor-title" className="h3">
        Modello <code>{detail.key}</code>
      </h2>
      <dl className="row" data-testid="template-facts">
        <dt className="col-sm-3">Canale</dt>
        <dd className="col-sm-9">{TEMPLATE_CHANNEL_LABELS[detail.channel]}</dd>
        <dt className="col-sm-3">Versione in uso</dt>
        <dd className="col-sm-9">
          {detail.version}
          {detail.restoredFromVersion !== null &&
            ` (ripristino della versione ${detail.restoredFromVersion})`}
        </dd>
        <dt className="col-sm-3">Aggiornato</dt>
        <dd className="col-sm-9">
          {formatShortDateTime(detail.updatedAt)}, {detail.updatedBy ?? 'sistema (versione predefinita)'}
        </dd>
      </dl>
      {detail.hasDefaultLayout && (
        <p className="small">
          La versione in uso ha l’impaginazione predefinita del sistema. Salvando una nuova versione, l’e-mail
          sarà composta dal testo qui sotto.
        </p>
      )}
      <div aria-live="polite">
        {message && <FormMessage message={message} tone={outcome?.ok ? 'success' : 'danger'} />}
      </div>
      <TemplateEditor detail={detail} outcome={outcome} />
      <section className="mt-4" aria-labelledby="preview-title">
        <h3 id="preview-title" className="h4">
          Anteprima
        </h3>
        <div aria-live="polite">
          {outcome?.intent === 'preview' && outcome.ok ? (
            <Preview outcome={outcome} templateKey={detail.key} maxLength={detail.maxLength} />
          ) : (
            <p>
              Premi «Anteprima con dati di esempio» per vedere la bozza come arriverà
              {detail.channel === 'pdf' ? ', come documento PDF' : ''}.
            </p>
          )}
        </div>
      </section>
      <section className="mt-5" aria-labelledby="versions-title">
        <h3 id="versions-title" className="h4">
          Versioni
        </h3>
        <VersionHistory versions={editor.versions} current={detail.version} />
      </section>
    </>
  );
}

/** Super-admin: the stored templates of every e-mail, SMS and PDF, their editor, preview and versions. */
export function Component() {
  const data = useLoaderData<Data>();
  const page = getPage('portal.templates');
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      {data.editor ? <EditorSection editor={data.editor} /> : <TemplateList data={data} />}
    </>
  );
}
