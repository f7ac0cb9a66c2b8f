import { Link, redirect, useActionData, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { getPage, href } from '@portale/shared/pages';
import {
  createSurvey,
  exportSurveys,
  listSurveys,
  SURVEY_STATE_LABELS,
  SURVEY_STATES,
  SURVEY_PARTICIPANTS,
  SURVEY_PARTICIPANTS_LABELS,
  SurveyInputSchema,
  type SurveySummary,
} from '@portale/shared/surveys';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar, type SelectFilter } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { callApi } from '../../lib/api-client.ts';
import { type FormResult } from '../../lib/form-data.ts';
import { formatDate, formatShortDateTime } from '../../lib/format.ts';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { SurveyForm, surveyFormValues } from './survey-form.tsx';
import { formAction } from '../../lib/form-action.ts';

const DEFAULT_SORT = '-updatedAt';
const column = listColumnHelper<SurveySummary>();
const COLUMNS = [
  column.accessor('title', {
    header: 'Indagine',
    meta: { rowHeader: true },
    cell: (c) => <Link to={href('portal.survey', { surveyId: c.row.original.id })}>{c.getValue()}</Link>,
  }),
  column.accessor('participants', {
    header: 'Chi risponde',
    enableSorting: false,
    cell: (c) => SURVEY_PARTICIPANTS_LABELS[c.getValue()],
  }),
  column.accessor('state', { header: 'Stato', cell: (c) => SURVEY_STATE_LABELS[c.getValue()] }),
  column.accessor('opensOn', { header: 'Apertura', cell: (c) => formatDate(c.getValue()) }),
  column.accessor('closesOn', { header: 'Chiusura', cell: (c) => formatDate(c.getValue()) }),
  column.accessor('questionCount', { header: 'Domande', enableSorting: false }),
  column.accessor('responseCount', { header: 'Risposte' }),
  column.accessor('updatedAt', { header: 'Aggiornata', cell: (c) => formatShortDateTime(c.getValue()) }),
];
const SORT_OPTIONS = sortOptionsOf([
  { value: 'updatedAt', label: 'Ultima modifica' },
  { value: 'title', label: 'Titolo' },
  { value: 'state', label: 'Stato' },
  { value: 'opensOn', label: 'Apertura' },
  { value: 'closesOn', label: 'Chiusura' },
  { value: 'responseCount', label: 'Risposte' },
]);
const FILTERS: SelectFilter[] = [
  {
    name: 'state',
    label: 'Stato',
    anyLabel: 'Tutti',
    options: SURVEY_STATES.map((s) => ({ value: s, label: SURVEY_STATE_LABELS[s] })),
  },
  {
    name: 'participants',
    label: 'Chi risponde',
    anyLabel: 'Tutti',
    options: SURVEY_PARTICIPANTS.map((p) => ({ value: p, label: SURVEY_PARTICIPANTS_LABELS[p] })),
  },
];

type Data = ListLoaderData<typeof listSurveys>;

export function loader({ request }: LoaderFunctionArgs): Promise<Data> {
  return loadList(listSurveys, request);
}

/** Creates a survey in `bozza`, then opens its page to add the questions. */
export const action = formAction({
  read: surveyFormValues,
  schema: SurveyInputSchema,
  call: (_data, { values }) => callApi(createSurvey, { body: values }),
  done: (survey) => redirect(`${href('portal.survey', { surveyId: survey.id })}?creata=1`),
});

/** Staff: the surveys with the list pattern, and the creation of a new one. */
export function Component() {
  const { query, result, problem } = useLoaderData<Data>();
  const outcome = useActionData<FormResult>();
  const page = getPage('portal.surveys');
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      <FilterBar
        label="Cerca nelle indagini"
        query={query}
        search={{ label: 'Cerca', hint: 'Parte del titolo o dei destinatari.' }}
        selects={FILTERS}
        sortOptions={SORT_OPTIONS}
        defaultSort={DEFAULT_SORT}
        errors={problem?.errors}
      />
      <ListResults
        query={query}
        result={result}
        problem={problem}
        caption="Indagini"
        columns={COLUMNS}
        defaultSort={DEFAULT_SORT}
        nouns={{ one: 'indagine trovata', many: 'indagini trovate' }}
        noMatch="Nessuna indagine corrisponde alla ricerca e ai filtri."
        exportEndpoint={exportSurveys}
        exportName="indagini"
      />
      <section className="mt-5" aria-labelledby="nuova-indagine">
        <h2 id="nuova-indagine" className="h3">
          Nuova indagine
        </h2>
        <p>L’indagine nasce in bozza: dopo averla creata aggiungi le domande, poi aprila.</p>
        <div role={outcome?.message ? 'alert' : undefined}>
          {outcome?.message && <div className="alert alert-danger">{outcome.message}</div>}
        </div>
        <SurveyForm
          errors={outcome?.errors ?? {}}
          intent="create"
          submitLabel="Crea l’indagine"
          prefix="nuova"
        />
      </section>
    </>
  );
}
