import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import { canSome } from '@portale/shared/auth';
import { getPublicSurvey, type PublicSurvey } from '@portale/shared/public';
import {
  getCurrentSurvey,
  getMyResponse,
  submitMyResponse,
  SURVEY_MESSAGES,
  type Answers,
  type CurrentSurvey,
  type MyResponse,
  type OpenSurvey,
} from '@portale/shared/surveys';
import { PageHeader } from '../../components/page-header.tsx';
import {
  answersFromForm,
  QuestionnaireAnswers,
  QuestionnaireFields,
} from '../../components/questionnaire/questionnaire.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { failureResult, type FormResult } from '../../lib/form-data.ts';
import { formatDateTime, formatDay } from '../../lib/format.ts';
import { getSession } from '../../lib/session.ts';
import { useCurrentPage } from '../../lib/use-current-page.ts';

interface Data {
  /** The survey open for teachers and educators with their questions, or null. */
  open: OpenSurvey | null;
  /** The survey open for code holders when it is another one (decision 046), or null. */
  codeSurvey: CodeSurvey | null;
  /** Without an open survey: the latest closed one, to say what it was. */
  latest: PublicSurvey | null;
  /** The signed-in user may answer (teacher or educator). */
  participant: boolean;
  mine: MyResponse['response'];
  /** Why a participant cannot answer now (a pending condition on the account), from the API. */
  blocked: string | null;
}

/** Prerendered as its heading and a loading line until the API answers (components/page-shell.tsx). */
export const prerenderShell = true;

export async function loader({ request }: LoaderFunctionArgs): Promise<Data> {
  const { signal } = request;
  const { survey: open, codeSurvey } = await callApi(getCurrentSurvey, {}, { signal });
  const latest = open || codeSurvey ? null : await callApi(getPublicSurvey, {}, { signal }).catch(() => null);
  const user = getSession().user;
  const participant = Boolean(open && user && canSome(user, 'create:response'));
  let mine: MyResponse['response'] = null;
  let blocked: string | null = null;
  if (participant) {
    try {
      mine = (await callApi(getMyResponse, {}, { signal })).response;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      blocked = error.message;
    }
  }
  return { open, codeSurvey, latest, participant, mine, blocked };
}

type CodeSurvey = NonNullable<CurrentSurvey['codeSurvey']>;

type Outcome = FormResult & { values?: Answers; duplicate?: boolean };

/** Sends the participant's answers; a refusal keeps what they wrote. */
export async function action({ request }: ActionFunctionArgs): Promise<Outcome> {
  const form = await request.formData();
  const { survey } = await callApi(getCurrentSurvey, {});
  if (!survey) return { message: SURVEY_MESSAGES.noOpenSurvey };
  const answers = answersFromForm(survey.questions, form);
  try {
    const sent = await callApi(submitMyResponse, { body: { answers } });
    return { ok: true, message: sent.message };
  } catch (error) {
    return {
      ...failureResult(error),
      values: answers,
      duplicate: error instanceof ApiError && error.status === 409,
    };
  }
}

function SurveyFacts({
  survey,
  state,
}: {
  survey: Pick<OpenSurvey, 'title' | 'purpose' | 'audience' | 'opensOn' | 'closesOn'>;
  state: string;
}) {
  return (
    <article aria-labelledby="survey-title">
      <h2 id="survey-title" className="h3">
        {survey.title}
      </h2>
      <p className="fw-semibold" data-testid="survey-dates">
        Indagine {state}: dal {formatDay(survey.opensOn)} al {formatDay(survey.closesOn)}
      </p>
      <h3 className="h4 mt-4">A che cosa serve</h3>
      <p>{survey.purpose}</p>
      <h3 className="h4 mt-4">Chi partecipa</h3>
      <p>{survey.audience}</p>
    </article>
  );
}

/** Who answers what is open now (decision 046): teachers here, code holders through their code. */
function HowToAnswer({
  signedIn,
  forTeachers,
  forCodes,
}: {
  signedIn: boolean;
  forTeachers: boolean;
  forCodes: boolean;
}) {
  return (
    <section className="mt-5" aria-labelledby="come-rispondere">
      <h2 id="come-rispondere" className="h3">
        Come si risponde
      </h2>
      <ul>
        {forTeachers ? (
          <li>
            Insegnanti ed educatori registrati rispondono su questa pagina dopo l’
            {signedIn ? (
              'accesso con il proprio account di insegnante o educatore'
            ) : (
              <Link to="/auth/login">accesso</Link>
            )}
            .
          </li>
        ) : (
          <li>In questo momento non c’è un’indagine aperta per insegnanti ed educatori.</li>
        )}
        {forCodes ? (
          <li>
            Studenti e famiglie rispondono in forma anonima con un <strong>codice di accesso</strong> di sette
            lettere o cifre, che ricevono dall’insegnante della classe: basta aprire l’indirizzo del sito
            seguito dal codice (per esempio <code>/AB3DE7K</code>; maiuscole e minuscole sono uguali). Vedono
            solo le domande rivolte a loro.
          </li>
        ) : (
          <li>
            L’indagine aperta è rivolta solo a insegnanti ed educatori: studenti e famiglie non hanno un
            questionario da compilare in questo momento.
          </li>
        )}
        <li>
          Non hai un codice? Chiedilo all’insegnante o alla segreteria della tua scuola: i codici li crea
          l’insegnante per le sue classi.
        </li>
        <li>
          La tua scuola non partecipa ancora? Il dirigente può{' '}
          <Link to="/iscrizioni/iscrizione">iscriverla</Link>.
        </li>
      </ul>
    </section>
  );
}

/** The current survey: purpose, who takes part, dates; a teacher or educator answers it here, once. */
export function Component() {
  const page = useCurrentPage();
  const { open, codeSurvey, latest, participant, mine, blocked } = useLoaderData<Data>();
  const outcome = useActionData<Outcome>();
  const signedIn = Boolean(getSession().user);
  const answered = participant && mine !== null;
  return (
    <div className="container my-5">
      <PageHeader title={page.title} description={page.description} />
      {open ? (
        <SurveyFacts survey={open} state="aperta" />
      ) : codeSurvey ? (
        <>
          <SurveyFacts survey={codeSurvey} state="aperta" />
          {signedIn && (
            <p className="alert alert-info" data-testid="survey-not-for-you">
              {SURVEY_MESSAGES.noOpenSurveyForTeachers}
            </p>
          )}
        </>
      ) : latest ? (
        <>
          <SurveyFacts survey={latest} state={latest.state === 'chiusa' ? 'conclusa' : latest.state} />
          <p className="alert alert-info">
            {SURVEY_MESSAGES.noOpenSurvey} I risultati delle indagini concluse sono nella pagina{' '}
            <Link to="/risultati">Risultati</Link>.
          </p>
        </>
      ) : (
        <p className="alert alert-info">{SURVEY_MESSAGES.noOpenSurvey}</p>
      )}

      {open && participant && (
        <section className="mt-5" aria-labelledby="questionario-title">
          <h2 id="questionario-title" className="h3">
            {answered ? 'Le tue risposte' : 'Il questionario'}
          </h2>
          <div role={outcome && !outcome.ok ? 'alert' : 'status'} aria-live="polite">
            {outcome?.message && (
              <div
                className={`alert alert-${outcome.ok ? 'success' : outcome.duplicate ? 'warning' : 'danger'}`}
                data-testid="survey-message"
              >
                {outcome.message}
              </div>
            )}
          </div>
          {blocked ? (
            <p className="alert alert-warning">
              {blocked} Completa i passaggi richiesti nel <Link to="/portale">portale</Link>, poi torna qui.
            </p>
          ) : answered && mine ? (
            <>
              <p data-testid="survey-answered">
                Hai già risposto a questa indagine il {formatDateTime(mine.submittedAt)}. Si può rispondere
                una sola volta: qui sotto trovi le risposte che hai inviato.
              </p>
              <QuestionnaireAnswers questions={open.questions} answers={mine.answers} />
            </>
          ) : (
            <Form method="post" noValidate data-testid="survey-form" aria-labelledby="questionario-title">
              <p>
                Le domande contrassegnate come obbligatorie richiedono una risposta. Puoi inviare le risposte
                una sola volta.
              </p>
              <QuestionnaireFields
                questions={open.questions}
                defaultValues={outcome?.values}
                errors={outcome?.errors}
              />
              <SubmitButton idle="Invia le risposte" busy="Invio in corso…" />
            </Form>
          )}
        </section>
      )}

      {open && codeSurvey && (
        <section className="mt-5" aria-labelledby="indagine-codici">
          <h2 id="indagine-codici" className="h3">
            Per studenti e famiglie: «{codeSurvey.title}»
          </h2>
          <p>{codeSurvey.purpose}</p>
          <p>
            Aperta dal {formatDay(codeSurvey.opensOn)} al {formatDay(codeSurvey.closesOn)}: si risponde con il
            codice di accesso ricevuto dall’insegnante.
          </p>
        </section>
      )}

      {!participant && (
        <HowToAnswer
          signedIn={signedIn}
          forTeachers={Boolean(open) || !codeSurvey}
          forCodes={Boolean(codeSurvey) || !open || open.participants !== 'insegnanti'}
        />
      )}
    </div>
  );
}
