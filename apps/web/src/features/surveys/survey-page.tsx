import {
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import { getPage, href } from '@portale/shared/pages';
import {
  getSurvey,
  QUESTION_TYPE_LABELS,
  QuestionListInputSchema,
  replaceSurveyQuestions,
  QUESTION_PARTICIPANTS_LABELS,
  SURVEY_PARTICIPANTS_LABELS,
  SURVEY_STATE_LABELS,
  SurveyUpdateSchema,
  transitionSurvey,
  updateSurvey,
  type SurveyDetail,
} from '@portale/shared/surveys';
import { parseId } from '@portale/shared/validation';
import { callApi } from '../../lib/api-client.ts';
import { failureResult, text, type FormResult } from '../../lib/form-data.ts';
import { formatDate, formatDateTime, formatNumber } from '../../lib/format.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { QuestionEditor } from './question-editor.tsx';
import { SurveyForm, surveyFormValues } from './survey-form.tsx';
import { ConfirmButton } from '../../components/form/confirm-button.tsx';
import { invalidForm, INVALID_FORM_MESSAGE } from '../../lib/form-action.ts';

type Outcome = FormResult & { intent: string };

const surveyIdOf = (params: LoaderFunctionArgs['params']) => parseId(params.surveyId)!;

export async function loader({ request, params }: LoaderFunctionArgs): Promise<SurveyDetail> {
  return callApi(getSurvey, { params: { surveyId: surveyIdOf(params) } }, { signal: request.signal });
}

/** Edit the data, replace the questions, open or close the survey. */
export async function action({ request, params }: ActionFunctionArgs): Promise<Outcome> {
  const surveyId = surveyIdOf(params);
  const form = await request.formData();
  const intent = text(form, 'intent');
  try {
    if (intent === 'questions') {
      let questions: unknown;
      try {
        questions = JSON.parse(text(form, 'questions'));
      } catch {
        return { intent, message: INVALID_FORM_MESSAGE };
      }
      const parsed = QuestionListInputSchema.safeParse({ questions });
      if (!parsed.success) return { intent, ...invalidForm(parsed.error.issues) };
      await callApi(replaceSurveyQuestions, {
        params: { surveyId },
        body: { questions: questions as never },
      });
      return { intent, ok: true, message: 'Domande salvate.' };
    }
    if (intent === 'open' || intent === 'close') {
      await callApi(transitionSurvey, {
        params: { surveyId },
        body: { to: intent === 'open' ? 'aperta' : 'chiusa' },
      });
      return {
        intent,
        ok: true,
        message:
          intent === 'open'
            ? 'Indagine aperta: ora si può rispondere.'
            : 'Indagine chiusa: non si accettano più risposte.',
      };
    }
    const body = surveyFormValues(form);
    const parsed = SurveyUpdateSchema.safeParse(body);
    if (!parsed.success) return { intent, ...invalidForm(parsed.error.issues) };
    await callApi(updateSurvey, { params: { surveyId }, body });
    return { intent, ok: true, message: 'Modifiche salvate.' };
  } catch (error) {
    return { intent, ...failureResult(error) };
  }
}

const TRANSITION_TEXTS = {
  open: {
    label: 'Apri l’indagine',
    confirm: (title: string) =>
      `Aprire «${title}»? Potrà rispondere chi è indicato in «Chi risponde», ognuno alle domande rivolte a lui. Le domande non si potranno più cambiare dopo la prima risposta. Per le stesse persone si può tenere aperta una sola indagine alla volta.`,
  },
  close: {
    label: 'Chiudi l’indagine',
    confirm: (title: string) =>
      `Chiudere «${title}»? Non si accetteranno più risposte e l’indagine non potrà essere riaperta.`,
  },
} as const;

/** Open or close, after a confirmation that says what will happen. */
function TransitionControl({ action, title }: { action: 'open' | 'close'; title: string }) {
  const texts = TRANSITION_TEXTS[action];
  return (
    <ConfirmButton
      intent={action}
      label={texts.label}
      question={texts.confirm(title)}
      confirmLabel={`Conferma: ${texts.label.charAt(0).toLowerCase() + texts.label.slice(1)}`}
      openerClassName={`btn ${action === 'close' ? 'btn-outline-danger' : 'btn-primary'}`}
      confirmClassName={`btn ${action === 'close' ? 'btn-danger' : 'btn-primary'}`}
      testId={`confirm-${action}`}
    />
  );
}

/** The questions as they are, when they can no longer change. */
function ReadOnlyQuestions({ survey }: { survey: SurveyDetail }) {
  return (
    <section className="mt-5" aria-labelledby="domande-title" data-testid="questions-read-only">
      <h2 id="domande-title" className="h3">
        Domande
      </h2>
      <p className="alert alert-info">
        {survey.state === 'chiusa' ? 'L’indagine è chiusa: ' : 'L’indagine ha già ricevuto risposte: '}le
        domande non possono più essere modificate.
      </p>
      <ol>
        {survey.questions.map((q) => (
          <li key={q.id} className="mb-3">
            <span className="fw-semibold">{q.label}</span> — {QUESTION_TYPE_LABELS[q.type]}
            {q.required ? ', obbligatoria' : ', facoltativa'}
            {survey.participants === 'entrambi' && `. ${QUESTION_PARTICIPANTS_LABELS[q.participants]}`}
            {q.help && <div className="small text-muted">{q.help}</div>}
            {q.options.length > 0 && <div className="small">Opzioni: {q.options.join('; ')}</div>}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Staff: one survey — its data, its questions (editor or read-only), opening and closing, responses. */
export function Component() {
  const survey = useLoaderData<SurveyDetail>();
  const outcome = useActionData<Outcome>();
  const created = new URLSearchParams(useLocation().search).get('creata') === '1';
  const page = getPage('portal.survey');
  const message =
    outcome?.message ?? (created ? 'Indagine creata in bozza: ora aggiungi le domande.' : undefined);
  const tone = outcome ? (outcome.ok ? 'success' : 'danger') : 'success';
  const questionErrors = outcome?.intent === 'questions' && !outcome.ok ? (outcome.errors ?? {}) : {};
  return (
    <>
      <header className="mb-4">
        <PageMeta title={survey.title} description={page.description} />
        <h1 className="mb-3">{survey.title}</h1>
        <p className="lead">{page.description}</p>
      </header>
      <div role={tone === 'danger' ? 'alert' : 'status'} aria-live="polite">
        {message && (
          <div className={`alert alert-${tone}`} data-testid="survey-message">
            {message}
          </div>
        )}
      </div>
      <dl className="row" data-testid="survey-facts">
        <dt className="col-sm-3">Stato</dt>
        <dd className="col-sm-9" data-testid="survey-state">
          {SURVEY_STATE_LABELS[survey.state]}
          {survey.openedAt && ` (aperta il ${formatDateTime(survey.openedAt)}`}
          {survey.openedAt && survey.closedAt && `, chiusa il ${formatDateTime(survey.closedAt)}`}
          {survey.openedAt && ')'}
        </dd>
        <dt className="col-sm-3">Chi risponde</dt>
        <dd className="col-sm-9" data-testid="survey-participants">
          {SURVEY_PARTICIPANTS_LABELS[survey.participants]}
        </dd>
        <dt className="col-sm-3">Periodo</dt>
        <dd className="col-sm-9">
          dal {formatDate(survey.opensOn)} al {formatDate(survey.closesOn)}
        </dd>
        <dt className="col-sm-3">Domande</dt>
        <dd className="col-sm-9">{formatNumber(survey.questionCount)}</dd>
        <dt className="col-sm-3">Risposte ricevute</dt>
        <dd className="col-sm-9" data-testid="survey-responses">
          {formatNumber(survey.responseCount)}
        </dd>
      </dl>
      <div className="mb-4">
        {survey.state === 'bozza' && <TransitionControl action="open" title={survey.title} />}
        {survey.state === 'aperta' && <TransitionControl action="close" title={survey.title} />}
        {survey.state === 'chiusa' && (
          <p>
            L’indagine è chiusa. I risultati aggregati sono pubblici nella pagina{' '}
            <Link to="/risultati">Risultati</Link>.
          </p>
        )}
      </div>

      {survey.questionsEditable ? (
        <QuestionEditor
          initial={survey.questions}
          participants={survey.participants}
          errors={questionErrors}
          version={survey.questions.map((q) => q.id).join(',')}
        />
      ) : (
        <ReadOnlyQuestions survey={survey} />
      )}

      <section className="mt-5" aria-labelledby="modifica-heading">
        <h2 id="modifica-heading" className="h3">
          Dati dell’indagine
        </h2>
        <SurveyForm
          key={survey.updatedAt}
          survey={survey}
          errors={outcome?.intent === 'edit' ? (outcome.errors ?? {}) : {}}
          intent="edit"
          submitLabel="Salva le modifiche"
          prefix="modifica"
        />
      </section>
      <p className="mt-5">
        <Link to={href('portal.surveys')}>Torna all’elenco delle indagini</Link>
      </p>
    </>
  );
}
