import { useId } from 'react';
import { Form, Link, useLoaderData, useLocation, useSubmit, type LoaderFunctionArgs } from 'react-router';
import { Button } from 'design-react-kit';
import { REGION_OPTIONS, SCHOOL_LEVEL_LABELS, SCHOOL_LEVELS } from '@portale/shared/registry';
import {
  exportResults,
  getResults,
  RESULTS_FILTER_KEYS,
  RESULTS_MESSAGES,
  RESULTS_METHODOLOGY_PATH,
  RESPONDENT_GROUP_LABELS,
  type ResultsResponse,
} from '@portale/shared/surveys';
import { FilterSelectField } from '../../components/form/select-field.tsx';
import { ExportButton } from '../../components/data-table/export-button.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { formatDay, formatNumber } from '../../lib/format.ts';
import { pickQuery } from '../../lib/list-loader.ts';
import { useCurrentPage } from '../../lib/use-current-page.ts';
import { QuestionSection } from './results-question.tsx';

interface ResultsData {
  query: Record<string, string>;
  data: ResultsResponse | null;
  problem: { message: string; errors: Record<string, string> } | null;
}

/** Prerendered as its heading and a loading line until the API answers (components/page-shell.tsx). */
export const prerenderShell = true;

/** The chosen survey and group from the URL; a bad filter is shown on the form (422), an unknown survey is the 404 page. */
export async function loader({ request }: LoaderFunctionArgs): Promise<ResultsData> {
  const query = pickQuery(new URL(request.url).searchParams, RESULTS_FILTER_KEYS);
  try {
    const data = await callApi(getResults, { query } as never, { signal: request.signal });
    return { query, data, problem: null };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 422 || error.status === 400)) {
      const errors: Record<string, string> = {};
      for (const [field, messages] of Object.entries(error.body?.errors ?? {}))
        if (messages[0]) errors[field] = messages[0];
      return { query, data: null, problem: { message: error.message, errors } };
    }
    throw error;
  }
}

const groupName = (region: string | null, level: string | null) =>
  [
    region ?? 'Tutta Italia',
    level ? SCHOOL_LEVEL_LABELS[level as keyof typeof SCHOOL_LEVEL_LABELS] : 'tutti i gradi scolastici',
  ].join(', ');

/** The whole of Italy for the same survey and group of respondents. */
function allItaly(pathname: string, query: Record<string, string>): string {
  const keep = new URLSearchParams();
  if (query.survey) keep.set('survey', query.survey);
  if (query.participants) keep.set('participants', query.participants);
  return keep.size > 0 ? `${pathname}?${keep.toString()}` : pathname;
}

function Filters({
  data,
  query,
  errors,
}: {
  data: ResultsResponse | null;
  query: Record<string, string>;
  errors: Record<string, string>;
}) {
  const id = useId();
  const { pathname } = useLocation();
  const submit = useSubmit();
  return (
    <Form
      key={JSON.stringify(query)}
      method="get"
      role="search"
      aria-label="Scegli l’indagine e il gruppo"
      className="filter-bar mb-4"
      onSubmit={(event) => {
        event.preventDefault();
        const params = new URLSearchParams();
        for (const [key, value] of new FormData(event.currentTarget))
          if (typeof value === 'string' && value) params.set(key, value);
        void submit(params, { method: 'get', action: pathname, preventScrollReset: true });
      }}
    >
      <div className="row g-3">
        {/* Bootstrap Italia's select-wrapper: the label floats over the select, which has no class of its own. */}
        {data && data.surveys.length > 1 && (
          <div className="col-12 col-lg-4">
            <FilterSelectField
              id={`${id}-survey`}
              name="survey"
              label="Indagine"
              defaultValue={query.survey ?? String(data.survey?.id ?? '')}
            >
              {data.surveys.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.title} (chiusa il {formatDay(s.closesOn)})
                </option>
              ))}
            </FilterSelectField>
          </div>
        )}
        {data && data.surveys.length === 1 && (
          <input type="hidden" name="survey" value={query.survey ?? ''} />
        )}
        {data && data.participantGroups.length > 1 && (
          <div className="col-12 col-lg-4">
            <FilterSelectField
              id={`${id}-participants`}
              name="participants"
              label="Chi ha risposto"
              defaultValue={query.participants ?? data.participants ?? ''}
              options={data.participantGroups.map((g) => ({ value: g, label: RESPONDENT_GROUP_LABELS[g] }))}
              error={errors.participants}
            />
          </div>
        )}
        <div className="col-12 col-sm-6 col-lg-4">
          <FilterSelectField
            id={`${id}-region`}
            name="region"
            label="Regione"
            defaultValue={query.region ?? ''}
            error={errors.region}

            anyLabel="Tutte le regioni"
            options={REGION_OPTIONS}
          />
        </div>
        <div className="col-12 col-sm-6 col-lg-4">
          <FilterSelectField
            id={`${id}-schoolLevel`}
            name="schoolLevel"
            label="Grado scolastico"
            defaultValue={query.schoolLevel ?? ''}
            error={errors.schoolLevel}
          >
            <option value="">Tutti i gradi</option>
            {SCHOOL_LEVELS.map((l) => (
              <option key={l} value={l}>
                {SCHOOL_LEVEL_LABELS[l]}
              </option>
            ))}
          </FilterSelectField>
        </div>
      </div>
      <div className="d-flex flex-wrap gap-2 mt-3">
        <Button color="primary" type="submit">
          Mostra i risultati
        </Button>
        <Link to={allItaly(pathname, query)} className="btn btn-outline-primary">
          Tutta Italia
        </Link>
      </div>
    </Form>
  );
}

function Results({ data, query }: { data: ResultsResponse; query: Record<string, string> }) {
  const survey = data.survey!;
  const group = groupName(data.region, data.schoolLevel);
  const rows = data.questions.reduce(
    (s, q) => s + q.rows.length + (q.answered !== null ? 1 : 0) + (q.mean !== null ? 1 : 0),
    1,
  );
  return (
    <>
      <section aria-labelledby="indagine" className="mb-4">
        <h2 id="indagine" className="h3">
          {survey.title}
        </h2>
        <p className="mb-1">{survey.purpose}</p>
        <p className="small text-muted">
          Chi ha partecipato: {survey.audience} Aperta dal {formatDay(survey.opensOn)} al{' '}
          {formatDay(survey.closesOn)}.
        </p>
      </section>
      {data.participants && data.participantGroups.length > 1 && (
        <p className="mb-1" data-testid="results-participants">
          Risposte di: <strong>{RESPONDENT_GROUP_LABELS[data.participants].toLowerCase()}</strong>. Ogni
          gruppo è pubblicato a parte, con le sue protezioni, e mai sommato all’altro.
        </p>
      )}
      <p className="fw-semibold" role="status" data-testid="results-group">
        {data.status === 'shown'
          ? `${group}: ${data.respondents === 1 ? '1 persona ha risposto' : `${formatNumber(data.respondents ?? 0)} persone hanno risposto`}.`
          : `${group}.`}
      </p>
      {data.status === 'suppressed' && (
        <div className="alert alert-info" data-testid="results-suppressed">
          <h3 className="h5">{RESULTS_MESSAGES.groupTooSmall}</h3>
          <p className="mb-0">
            {RESULTS_MESSAGES.groupTooSmallDetail(data.minGroup)}{' '}
            <Link to={RESULTS_METHODOLOGY_PATH}>{RESULTS_MESSAGES.methodologyLink}</Link>.
          </p>
        </div>
      )}
      {data.status === 'empty' && (
        <div className="alert alert-info" data-testid="results-empty">
          {data.participantGroups.length > 1 && data.participants
            ? `Nessuna risposta di ${RESPONDENT_GROUP_LABELS[data.participants].toLowerCase()} a questa indagine.`
            : RESULTS_MESSAGES.empty}
        </div>
      )}
      <div className="mb-4">
        <h3 className="h6">Scarica i dati mostrati</h3>
        <ExportButton endpoint={exportResults} query={query} total={rows} fileBase="risultati" />
        <p className="small mt-2 mb-0">
          Nei file i dati protetti sono indicati con «{RESULTS_MESSAGES.protectedCell}»:{' '}
          <Link to={RESULTS_METHODOLOGY_PATH}>{RESULTS_MESSAGES.methodologyLink.toLowerCase()}</Link>.
        </p>
      </div>
      {data.status === 'shown' && (
        <>
          <h2 className="h3 mt-5">Risultati per domanda</h2>
          <p className="small">
            Per proteggere l’anonimato non mostriamo mai gruppi di meno di {data.minGroup} persone, né numeri
            da cui un gruppo così piccolo, o la risposta di qualcuno, si potrebbe ricavare confrontando filtri
            diversi o edizioni diverse dell’indagine.
            {data.textQuestions > 0 &&
              ` Le risposte alle domande aperte (${data.textQuestions}) non sono pubblicate.`}
          </p>
          {data.questions.map((q) => (
            <QuestionSection
              key={q.id}
              question={q}
              respondents={data.respondents ?? 0}
              minGroup={data.minGroup}
            />
          ))}
        </>
      )}
    </>
  );
}

/** Anyone: the closed surveys' aggregated results, by region and school level, protected (decision 018). */
export function Component() {
  const { query, data, problem } = useLoaderData<ResultsData>();
  const page = useCurrentPage();
  return (
    <div className="container my-5">
      <PageHeader title={page.title} description={page.description} />
      {problem && (
        <div className="alert alert-danger" role="alert" data-testid="results-problem">
          {problem.message} Correggi i campi evidenziati.
        </div>
      )}
      {data && !data.survey && <p data-testid="results-none">{RESULTS_MESSAGES.noClosedSurvey}</p>}
      {(problem || data?.survey) && <Filters data={data} query={query} errors={problem?.errors ?? {}} />}
      {data?.survey && <Results data={data} query={query} />}
    </div>
  );
}
