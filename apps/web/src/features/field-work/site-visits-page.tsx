import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import {
  Form,
  useActionData,
  useLoaderData,
  useNavigation,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import {
  closeVisit,
  createVisit,
  listSiteVisits,
  reportVisit,
  visitCalendar,
  visitReportable,
  VISIT_STATE_LABELS,
  type SiteTeacher,
  type Visit,
} from '@portale/shared/field-work';
import { Button } from 'design-react-kit';
import { REVIEW_STATE_LABELS } from '@portale/shared/reviews';
import { ChoiceField } from '../../components/form/choice-field.tsx';
import { FieldError } from '../../components/form/field.tsx';
import { DateTimeField, InputField } from '../../components/form/input-field.tsx';
import { TextAreaField } from '../../components/form/text-area-field.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { FlaggedFields } from '../../components/flagged-fields.tsx';
import { ApiError, callApi, downloadFile } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/format.ts';
import { VISIT_STATE_BADGES } from './field-work-labels.ts';
import { SiteFacts } from './site-facts.tsx';

// The offline store and queue (issue 39) load only here, on the detector's visit page, and lazily.
const OfflineReportsPanel = lazy(() => import('./offline/offline-reports-panel.tsx'));
const offlineQueue = () => import('./offline/detector-report-queue.ts').then((m) => m.detectorReportQueue());
// The photos (decision 055): the draft's picker and the sent report's thumbnails, lazily too.
const ReportPhotosField = lazy(() => import('./offline/report-photos-field.tsx'));
const VisitPhotos = lazy(() => import('./visit-photos.tsx'));

export async function loader({ params, request }: LoaderFunctionArgs) {
  return callApi(listSiteVisits, { params: { siteId: Number(params.siteId) } }, { signal: request.signal });
}

interface Result {
  intent: string;
  visitId?: number;
  ok?: string;
  message?: string;
  errors?: Record<string, string[]>;
}

export async function action({ params, request }: ActionFunctionArgs): Promise<Result> {
  const form = await request.formData();
  const intent = String(form.get('intent'));
  const visitId = Number(form.get('visitId')) || undefined;
  try {
    if (intent === 'plan') {
      await callApi(createVisit, {
        params: { siteId: Number(params.siteId) },
        body: { scheduledAt: String(form.get('scheduledAt') ?? '') },
      });
      return { intent, ok: 'Visita pianificata.' };
    }
    if (intent === 'report' && visitId) {
      const teachersMet = form.getAll('teachersMet').map(Number);
      const report = String(form.get('report') ?? '');
      const clientReportId = String(form.get('clientReportId') ?? '') || undefined;
      try {
        await callApi(reportVisit, {
          params: { visitId },
          body: { report, teachersMet, ...(clientReportId ? { clientReportId } : {}) },
        });
      } catch (error) {
        // No network: the draft (same client id) is queued on the device and sent when the network returns.
        if (clientReportId && error instanceof ApiError && error.status === 0) {
          const queue = await offlineQueue();
          await queue.saveDraft({ clientReportId, visitId, report, teachersMet });
          await queue.submit(clientReportId);
          return {
            intent,
            visitId,
            ok: 'Sei senza rete: il resoconto è salvato sul dispositivo e sarà inviato appena la rete torna.',
          };
        }
        throw error;
      }
      // The draft's photos go after the report (decision 055); `true` when some are still to send.
      const photosLeft = clientReportId
        ? await import('./offline/detector-report-queue.ts').then((m) => m.finishOnlineSend(clientReportId))
        : false;
      const sent = 'Resoconto inviato: la visita è svolta ed è in attesa di revisione.';
      return { intent, visitId, ok: photosLeft ? `${sent} Le foto saranno inviate appena possibile.` : sent };
    }
    if ((intent === 'annullata' || intent === 'mancata') && visitId) {
      const note = String(form.get('note') ?? '').trim();
      await callApi(closeVisit, { params: { visitId }, body: { state: intent, ...(note ? { note } : {}) } });
      return {
        intent,
        visitId,
        ok: intent === 'annullata' ? 'Visita annullata.' : 'Visita segnata come mancata.',
      };
    }
    return { intent, message: 'Azione sconosciuta.' };
  } catch (error) {
    if (error instanceof ApiError && error.status !== 401) {
      const errors = (error.body as { errors?: Record<string, string[]> } | undefined)?.errors;
      return {
        intent,
        ...(visitId ? { visitId } : {}),
        message: error.message,
        ...(errors ? { errors } : {}),
      };
    }
    throw error;
  }
}

function CalendarButton({ visit }: { visit: Visit }) {
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <>
      <Button
        type="button"
        color="primary"
        outline
        size="sm"
        className="me-2"
        onClick={() => {
          setProblem(null);
          downloadFile(visitCalendar, { params: { visitId: visit.id } }, undefined, {
            fallbackName: `visita-${visit.id}.ics`,
          }).catch((e: Error) => setProblem(e.message));
        }}
      >
        Aggiungi al calendario (.ics)
      </Button>
      {problem && (
        <span role="alert" className="text-danger small">
          {problem}
        </span>
      )}
    </>
  );
}

function ReportForm({
  visit,
  teachers,
  result,
  busy,
}: {
  visit: Visit;
  teachers: SiteTeacher[];
  result: Result | undefined;
  busy: boolean;
}) {
  const mine = result?.visitId === visit.id && result.intent === 'report' ? result : undefined;
  const err = mine?.errors?.report?.[0];
  const met = new Set(visit.teachersMet.map((t) => t.id));
  const id = `report-${visit.id}`;
  const formRef = useRef<HTMLFormElement>(null);
  const [clientReportId, setClientReportId] = useState<string | null>(null);
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // A draft left on this device (the tab was closed, the network was down) comes back into the form.
  useEffect(() => {
    let cancelled = false;
    offlineQueue()
      .then((q) => q.draftOf(visit.id))
      .then((draft) => {
        if (cancelled || !draft || !formRef.current) return;
        setClientReportId(draft.clientReportId);
        const area = formRef.current.elements.namedItem('report');
        if (area instanceof HTMLTextAreaElement && draft.report) area.value = draft.report;
        const chosen = new Set(draft.teachersMet.map(String));
        for (const box of formRef.current.querySelectorAll<HTMLInputElement>('input[name="teachersMet"]'))
          box.checked = chosen.has(box.value);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      clearTimeout(saveTimer.current);
    };
  }, [visit.id]);
  const currentDraft = () => {
    const data = new FormData(formRef.current ?? undefined);
    return {
      ...(clientReportId ? { clientReportId } : {}),
      visitId: visit.id,
      report: String(data.get('report') ?? ''),
      teachersMet: data.getAll('teachersMet').map(Number),
    };
  };
  // The first photo creates the draft (and its client id) if the detector has not typed yet.
  const ensureDraft = async (): Promise<string> => {
    if (clientReportId) return clientReportId;
    const saved = await (await offlineQueue()).saveDraft(currentDraft());
    setClientReportId(saved.clientReportId);
    return saved.clientReportId;
  };
  // Saved on the device as the detector types (the client id is chosen with the first save).
  const saveDraft = () => {
    clearTimeout(saveTimer.current);
    saveTimer.current = setTimeout(() => {
      if (!formRef.current) return;
      const draft = currentDraft();
      offlineQueue()
        .then((q) => q.saveDraft(draft))
        .then((saved) => setClientReportId(saved.clientReportId))
        .catch(() => undefined);
    }, 400);
  };
  return (
    <Form
      ref={formRef}
      method="post"
      className="mt-3"
      aria-label={`Resoconto della visita del ${formatDateTime(visit.scheduledAt)}`}
      onChange={saveDraft}
    >
      <input type="hidden" name="intent" value="report" />
      <input type="hidden" name="visitId" value={visit.id} />
      {clientReportId && <input type="hidden" name="clientReportId" value={clientReportId} />}
      <TextAreaField
        id={id}
        name="report"
        label="Resoconto della visita"
        rows={4}
        required
        minLength={10}
        maxLength={5000}
        defaultValue={visit.report ?? ''}
        error={err}
      />
      <ChoiceField
        id={`met-${visit.id}`}
        name="teachersMet"
        type="checkbox"
        legend="Insegnanti incontrati"
        legendClassName="h6"
        options={teachers.map((t) => ({ value: String(t.userId), label: `${t.firstName} ${t.lastName}` }))}
        defaultValue={teachers.filter((t) => met.has(t.userId)).map((t) => String(t.userId))}
        error={mine?.errors?.teachersMet?.[0]}
      >
        {teachers.length === 0 && (
          <p className="text-muted small">Nessun insegnante registrato nel plesso.</p>
        )}
      </ChoiceField>
      <Suspense fallback={null}>
        <ReportPhotosField clientReportId={clientReportId} ensureDraft={ensureDraft} />
      </Suspense>
      <Button color="primary" size="sm" type="submit" disabled={busy}>
        {visit.reviewState === 'da_correggere' ? 'Invia il resoconto corretto' : 'Invia il resoconto'}
      </Button>
    </Form>
  );
}

function CloseForm({ visit, busy }: { visit: Visit; busy: boolean }) {
  return (
    <Form
      method="post"
      className="mt-3 d-flex flex-wrap gap-2 align-items-end"
      aria-label={`Annulla o segna come mancata la visita del ${formatDateTime(visit.scheduledAt)}`}
    >
      <input type="hidden" name="visitId" value={visit.id} />
      <InputField
        id={`note-${visit.id}`}
        name="note"
        label="Motivo (facoltativo)"
        fieldClassName=""
        labelClassName="form-label small"
        className="form-control form-control-sm"
        maxLength={1000}
      />
      <Button
        color="secondary"
        outline
        size="sm"
        type="submit"
        name="intent"
        value="annullata"
        disabled={busy}
      >
        Annulla la visita
      </Button>
      <Button color="secondary" outline size="sm" type="submit" name="intent" value="mancata" disabled={busy}>
        Segna come mancata
      </Button>
    </Form>
  );
}

/** A plesso's visits: plan one, download it for the calendar, file the report, cancel or mark as missed. */
export function Component() {
  const { site, teachers, items } = useLoaderData<Awaited<ReturnType<typeof loader>>>();
  const result = useActionData<Result>();
  const busy = useNavigation().state === 'submitting';
  const planError = result?.intent === 'plan' ? result.errors?.scheduledAt?.[0] : undefined;
  return (
    <>
      <PageHeader
        title={`Visite a ${site.name}`}
        description={`${site.municipalityName} (${site.province}) · ${site.ministryCode}`}
      />
      <SiteFacts site={site} />
      <Suspense fallback={null}>
        <OfflineReportsPanel />
      </Suspense>
      <div role="status" className="mb-3">
        {result?.ok && <div className="alert alert-success">{result.ok}</div>}
      </div>
      {result?.message && !result.ok && (
        <div className="alert alert-danger" role="alert">
          {result.message}
        </div>
      )}
      <section aria-labelledby="pianifica-title" className="mb-5">
        <h2 id="pianifica-title" className="h4">
          Pianifica una visita
        </h2>
        <Form method="post" className="d-flex flex-wrap gap-3 align-items-end">
          <input type="hidden" name="intent" value="plan" />
          <DateTimeField
            id="scheduledAt"
            name="scheduledAt"
            label="Data e ora (ora italiana)"
            fieldClassName=""
            labelClassName="form-label"
            required
            aria-invalid={planError ? true : undefined}
            aria-describedby={planError ? 'scheduledAt-error' : undefined}
          />
          <Button color="primary" type="submit" disabled={busy}>
            Pianifica
          </Button>
        </Form>
        {/* Under the row, not in it: the error would push the input up off the button's line. */}
        <FieldError id="scheduledAt" error={planError} className="text-danger small mt-2" />
      </section>
      <section aria-labelledby="visite-title">
        <h2 id="visite-title" className="h4">
          Visite ({items.length})
        </h2>
        {items.length === 0 && <p className="text-muted">Nessuna visita per questo plesso.</p>}
        <ol className="list-unstyled">
          {items.map((v) => (
            <li
              key={v.id}
              className="border-start border-3 ps-3 mb-4"
              data-testid="visit"
              data-visit-id={v.id}
            >
              <h3 className="h5">
                Visita del {formatDateTime(v.scheduledAt)}{' '}
                <span className={`badge ${VISIT_STATE_BADGES[v.state]}`}>{VISIT_STATE_LABELS[v.state]}</span>
              </h3>
              <p className="small mb-1">
                Rilevatore: {v.detector.firstName} {v.detector.lastName}
                {v.reviewState && <> · Revisione: {REVIEW_STATE_LABELS[v.reviewState]}</>}
              </p>
              {v.reviewState === 'da_correggere' && v.reviewNote && (
                <div className="alert alert-warning" role="note">
                  Da correggere: {v.reviewNote}
                  <FlaggedFields fields={v.reviewFields} />
                </div>
              )}
              {v.outcomeNote && <p className="small">Motivo: {v.outcomeNote}</p>}
              {v.report && v.reviewState !== 'da_correggere' && (
                <p style={{ whiteSpace: 'pre-line' }}>{v.report}</p>
              )}
              {v.teachersMet.length > 0 && v.reviewState !== 'da_correggere' && (
                <p className="small">
                  Insegnanti incontrati: {v.teachersMet.map((t) => `${t.firstName} ${t.lastName}`).join(', ')}
                </p>
              )}
              {v.report && (
                <Suspense fallback={null}>
                  <VisitPhotos visitId={v.id} />
                </Suspense>
              )}
              {v.state === 'pianificata' && <CalendarButton visit={v} />}
              {v.reviewState === 'da_correggere' ||
              (v.state === 'pianificata' && visitReportable(v.scheduledAt, new Date())) ? (
                <ReportForm visit={v} teachers={teachers} result={result} busy={busy} />
              ) : (
                v.state === 'pianificata' && (
                  <p className="small text-muted mt-2">
                    Il resoconto si potrà inviare dal giorno della visita in poi.
                  </p>
                )
              )}
              {v.state === 'pianificata' && <CloseForm visit={v} busy={busy} />}
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
