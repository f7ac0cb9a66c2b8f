import { useEffect, useMemo, useRef, useState } from 'react';
import { Form, Link, useActionData, useNavigation } from 'react-router';
import { Button } from 'design-react-kit';
import { href } from '@portale/shared/pages';
import { TEMPLATE_CHANNEL_LABELS, TEMPLATE_MESSAGES, type TemplateDetail } from '@portale/shared/templates';
import { FormMessage } from '../../components/form/form-message.tsx';
import { formatNumber, formatShortDateTime } from '../../lib/format.ts';
import { InputField } from '../../components/form/input-field.tsx';
import { TextAreaField } from '../../components/form/text-area-field.tsx';
import type { Editor, Outcome } from './template-types.ts';
import { VersionHistory } from './template-versions.tsx';

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
        <InputField
          id="template-subject"
          type="text"
          name="subject"
          label={subjectLabel}
          fieldClassName="form-group"
          labelClassName="active"
          defaultValue={detail.subject ?? ''}
          error={errors.subject}
        />
      )}
      <TextAreaField
        ref={body}
        id="template-body"
        name="textBody"
        label="Testo"
        hintFirst
        hintClassName="small text-muted mb-1"
        hint={
          <>
            {detail.channel === 'email'
              ? 'Testo semplice con un Markdown leggero: una riga vuota separa i paragrafi, **grassetto**, elenchi con «- », collegamenti come [testo]({{link}}). L’HTML scritto qui non viene interpretato.'
              : detail.channel === 'pdf'
                ? 'Una riga che inizia con «## » è un titolo di sezione, una che inizia con «- » un punto elenco, ogni altra riga un paragrafo.'
                : 'Testo semplice dell’SMS.'}{' '}
            Massimo {formatNumber(detail.maxLength)} caratteri: ora {formatNumber(length)}.
          </>
        }
        rows={isSms ? 4 : 14}
        className="form-control font-monospace"
        defaultValue={detail.textBody}
        onInput={(e) => setLength(e.currentTarget.value.length)}
        error={errors.textBody}
      />
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
                  <Button
                    type="button"
                    color="secondary"
                    outline
                    className="btn-xs"
                    onClick={() => body.current && insertAt(body.current, name)}
                  >
                    <span className="visually-hidden">Inserisci </span>
                    <code>{`{{${name}}}`}</code>
                  </Button>
                </li>
              ))}
            </ul>
          </>
        )}
      </fieldset>
      <div className="d-flex flex-wrap gap-2">
        <Button color="primary" outline type="submit" name="intent" value="preview" disabled={busy}>
          Anteprima con dati di esempio
        </Button>
        <Button color="primary" type="submit" name="intent" value="save" disabled={busy}>
          Salva come nuova versione
        </Button>
      </div>
    </Form>
  );
}

export function EditorSection({ editor }: { editor: Editor }) {
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
