import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  data,
  Form,
  useActionData,
  useLoaderData,
  useNavigation,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import { SEED_ERRORS } from '@portale/shared/http';
import {
  ACCESS_CODE_MESSAGES,
  ACCESS_CODE_RESERVED,
  getPublicAccessCode,
  submitAccessCodeResponse,
  type Answers,
  type PublicAccessCode,
} from '@portale/shared/surveys';
import { Button } from 'design-react-kit';
import { PageMeta } from '../../components/page-meta.tsx';
import { answersFromForm, QuestionnaireFields } from '../../components/questionnaire/questionnaire.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format.ts';

/**
 * `/{code}`: the anonymous questionnaire an access code opens (issue 12). The router has checked the
 * code's shape (seed §5); a code that opens nothing is the same 404 'Page Not Found: {path}'. Answers
 * are kept on this device while answering (localStorage, per code) and cleared once sent.
 */

const draftKey = (code: string) => `portale.codice.${code}`;

function readDraft(code: string): Answers | undefined {
  try {
    const raw = window.localStorage.getItem(draftKey(code));
    const parsed: unknown = raw ? JSON.parse(raw) : undefined;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Answers) : undefined;
  } catch {
    return undefined;
  }
}

function writeDraft(code: string, answers: Answers) {
  try {
    if (Object.keys(answers).length === 0) window.localStorage.removeItem(draftKey(code));
    else window.localStorage.setItem(draftKey(code), JSON.stringify(answers));
  } catch {
    // Private browsing or a full storage: the questionnaire still works, only without the draft.
  }
}

function clearDraft(code: string) {
  try {
    window.localStorage.removeItem(draftKey(code));
  } catch {
    // Nothing to clear.
  }
}

const notFound = (request: Request) => {
  const url = new URL(request.url);
  return data(
    { message: SEED_ERRORS.tokenNotFound(url.pathname + url.search), valid: true },
    { status: 404 },
  );
};

/**
 * The code just answered, for the revalidation that follows the action: its last use may be gone, and
 * the thank-you must not turn into the 404. Read once; any later visit asks the API again.
 */
let justSent: PublicAccessCode | null = null;
/** The code the page shows, so that sending it does not ask the API for its questions again. */
let shown: PublicAccessCode | null = null;

export async function loader({ params, request }: LoaderFunctionArgs): Promise<PublicAccessCode> {
  if (justSent && justSent.code === params.token) {
    const opened = justSent;
    justSent = null;
    return opened;
  }
  // Not a code but a static API path (it would answer something else): the same 404.
  if (ACCESS_CODE_RESERVED.includes(params.token ?? '')) throw notFound(request);
  try {
    shown = await callApi(
      getPublicAccessCode,
      { params: { code: params.token ?? '' } },
      { signal: request.signal },
    );
    return shown;
  } catch (error) {
    if (error instanceof ApiError && error.status === 429)
      throw data({ message: ACCESS_CODE_MESSAGES.rateLimited }, { status: 429 });
    if (error instanceof ApiError && error.status !== 0 && error.status < 500) throw notFound(request);
    throw error;
  }
}

type ActionResult =
  | { sent: true; message: string }
  | { sent: false; message: string; errors: Record<string, string>; answers: Answers };

export async function action({ params, request }: ActionFunctionArgs): Promise<ActionResult> {
  const code = params.token ?? '';
  const form = await request.formData();
  const opened =
    shown?.code === code
      ? shown
      : await loader({ params, request, context: undefined } as unknown as LoaderFunctionArgs);
  const answers = answersFromForm(opened.survey.questions, form);
  try {
    const body = await callApi(submitAccessCodeResponse, { params: { code }, body: { answers } });
    clearDraft(code);
    justSent = opened;
    return { sent: true, message: body.message };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 0 || error.status >= 500) throw error;
    const errors: Record<string, string> = {};
    for (const [field, messages] of Object.entries(error.body?.errors ?? {}))
      if (messages[0]) errors[field] = messages[0];
    const message =
      error.status === 422
        ? 'Alcune risposte non sono valide o mancano: controlla le domande segnalate.'
        : error.status === 404
          ? `${ACCESS_CODE_MESSAGES.notFound} Le risposte non sono state inviate.`
          : error.message;
    return { sent: false, message, errors, answers };
  }
}

function ThankYou({ message }: { message: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="container my-4">
      <div className="row">
        <div className="col-lg-8" data-testid="access-code-thanks">
          <PageMeta
            title="Grazie per la partecipazione"
            description="Le risposte al questionario sono state registrate."
          />
          <h1 ref={ref} tabIndex={-1} className="mb-3">
            Grazie per la partecipazione
          </h1>
          <p className="lead">{message}</p>
          <p>Puoi chiudere questa pagina. Il codice che hai usato non serve più.</p>
        </div>
      </div>
    </div>
  );
}

export function Component() {
  const opened = useLoaderData<PublicAccessCode>();
  const result = useActionData<ActionResult>();
  const submitting = useNavigation().state === 'submitting';
  const { survey, code } = opened;
  // The saved draft, read once per code (an answer sent back after a refusal wins).
  const [draft] = useState(() => readDraft(code));
  const [saved, setSaved] = useState(false);
  const alertRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result && !result.sent) alertRef.current?.focus();
  }, [result]);

  if (result?.sent) return <ThankYou message={result.message} />;

  const save = (event: FormEvent<HTMLFormElement>) => {
    writeDraft(code, answersFromForm(survey.questions, new FormData(event.currentTarget)));
    setSaved(true);
  };
  const where = [opened.schoolSite.name, opened.schoolSite.municipality].filter(Boolean).join(', ');
  const refused = result && !result.sent ? result : undefined;

  return (
    <div className="container my-4">
      <div className="row">
        <div className="col-lg-9">
          <header className="mb-4">
            <PageMeta title={survey.title} description="Questionario anonimo con codice di accesso." />
            <p className="text-uppercase small fw-semibold text-primary mb-1">Questionario anonimo</p>
            <h1 className="mb-3">{survey.title}</h1>
            <p className="lead">{survey.purpose}</p>
            <dl className="row mb-0" data-testid="access-code-context">
              <dt className="col-sm-3">Plesso</dt>
              <dd className="col-sm-9">{where}</dd>
              {opened.classLabel && (
                <>
                  <dt className="col-sm-3">Classe</dt>
                  <dd className="col-sm-9">{opened.classLabel}</dd>
                </>
              )}
              <dt className="col-sm-3">Codice valido fino al</dt>
              <dd className="col-sm-9">
                {formatDate(new Date(new Date(opened.expiresAt).getTime() - 1).toISOString())}
              </dd>
            </dl>
          </header>
          <div className="callout note mb-4">
            <div className="callout-title">Prima di iniziare</div>
            <p className="mb-0">
              Le risposte sono anonime: non ti chiediamo nome, e-mail o altri dati personali, e non scriverli
              nelle risposte aperte. Mentre compili, le risposte restano salvate su questo dispositivo: se
              chiudi la pagina, riaprendo lo stesso indirizzo le ritrovi.
            </p>
          </div>
          <div ref={alertRef} tabIndex={-1} role="alert">
            {refused && <div className="alert alert-danger">{refused.message}</div>}
          </div>
          <Form
            method="post"
            noValidate
            onChange={save}
            aria-labelledby="questionario-titolo"
            data-testid="access-code-form"
          >
            <h2 id="questionario-titolo" className="h4 mb-3">
              Le domande
            </h2>
            <QuestionnaireFields
              questions={survey.questions}
              defaultValues={refused?.answers ?? draft}
              errors={refused?.errors}
              idPrefix="codice"
            />
            <p className="small text-muted" role="status" data-testid="draft-status">
              {saved
                ? 'Risposte salvate su questo dispositivo.'
                : draft
                  ? 'Abbiamo ripreso le risposte salvate su questo dispositivo.'
                  : ''}
            </p>
            <Button type="submit" color="primary" disabled={submitting}>
              {submitting ? 'Invio in corso…' : 'Invia le risposte'}
            </Button>
          </Form>
        </div>
      </div>
    </div>
  );
}
