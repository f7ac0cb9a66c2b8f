import { Link, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { getPage } from '@portale/shared/pages';
import { TEACHER_REVIEW_STATE_LABELS } from '@portale/shared/registry';
import {
  exportTeachers,
  getTeacher,
  listTeachers,
  TEACHER_KIND_LABELS,
  type TeacherDetail,
  type TeacherSummary,
} from '@portale/shared/teachers';
import { parseId } from '@portale/shared/validation';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { useListParams } from '../../components/data-table/use-list-params.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { KIND_FILTER, REVIEW_FILTER, REVIEW_STATE_BADGES } from './teacher-labels.ts';
import { TeacherPanel } from './teacher-panel.tsx';
import { decideHeldResponses, HELD_RESPONSES_INTENT } from './held-responses-action.ts';

const DEFAULT_SORT = 'name';
/** The URL parameter of the open profile. */
const OPEN = 'teacherId';

type Data = ListLoaderData<typeof listTeachers> & {
  teacher: TeacherDetail | null;
  teacherProblem: string | null;
};

/** The link that opens a profile above the list, keeping the list's page, filters and order. */
function useProfileHref() {
  const list = useListParams(DEFAULT_SORT);
  return (id: number | null) => list.hrefWith({ [OPEN]: id, page: list.page > 1 ? list.page : null });
}

function OpenProfile({ id, children }: { id: number; children: React.ReactNode }) {
  const hrefOf = useProfileHref();
  return (
    <Link to={hrefOf(id)} preventScrollReset>
      {children}
    </Link>
  );
}

const column = listColumnHelper<TeacherSummary>();
const COLUMNS = [
  column.accessor((t) => `${t.lastName} ${t.firstName}`, {
    id: 'name',
    header: 'Cognome e nome',
    meta: { rowHeader: true },
    cell: (c) => <OpenProfile id={c.row.original.id}>{c.getValue()}</OpenProfile>,
  }),
  column.accessor('email', { header: 'E-mail' }),
  column.accessor('kind', { header: 'Tipo', cell: (c) => TEACHER_KIND_LABELS[c.getValue()] }),
  column.accessor('schoolSiteName', {
    header: 'Plesso',
    cell: (c) => c.getValue() ?? <span className="text-muted">non scelto</span>,
  }),
  column.accessor('province', {
    header: 'Prov.',
    meta: { label: 'Provincia' },
    cell: (c) => c.getValue() ?? '—',
  }),
  column.accessor('reviewState', {
    header: 'Revisione',
    meta: { label: 'Revisione della registrazione' },
    cell: (c) => (
      <span className={`badge ${REVIEW_STATE_BADGES[c.getValue()]}`}>
        {TEACHER_REVIEW_STATE_LABELS[c.getValue()]}
      </span>
    ),
  }),
  column.accessor((t) => t.emailVerified && t.phoneVerified, {
    id: 'contacts',
    header: 'Recapiti',
    enableSorting: false,
    meta: { label: 'Recapiti verificati' },
    cell: (c) => (c.getValue() ? 'verificati' : <span className="text-muted">da verificare</span>),
  }),
];
const SORT_OPTIONS = sortOptionsOf([
  { value: 'name', label: 'Cognome e nome' },
  { value: 'email', label: 'E-mail' },
  { value: 'kind', label: 'Tipo' },
  { value: 'reviewState', label: 'Stato della revisione' },
  { value: 'schoolSiteName', label: 'Plesso' },
  { value: 'province', label: 'Provincia' },
  { value: 'createdAt', label: 'Data di registrazione' },
]);

/** The list of the URL, and the profile it opens (`?teacherId=`); an unknown profile is said in the page. */
export async function loader({ request }: LoaderFunctionArgs): Promise<Data> {
  const raw = new URL(request.url).searchParams.get(OPEN);
  const teacherId = raw ? parseId(raw) : undefined;
  const [list, teacher] = await Promise.all([
    loadList(listTeachers, request),
    teacherId
      ? callApi(getTeacher, { params: { teacherId } }, { signal: request.signal }).catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        })
      : Promise.resolve(null),
  ]);
  const teacherProblem = raw && !teacher ? 'Insegnante non trovato: il profilo richiesto non esiste.' : null;
  return { ...list, teacher, teacherProblem };
}

/** Staff: registered teachers and educators, searched, filtered, sorted and paged on the server. */
/** The teacher panel's widgets post here (`intent`); the page's data is loaded again afterwards. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  if (form.get('intent') === HELD_RESPONSES_INTENT) return decideHeldResponses(form);
  return null;
}

export function Component() {
  const { query, result, problem, teacher, teacherProblem } = useLoaderData<Data>();
  const page = getPage('portal.teachers');
  const list = useListParams(DEFAULT_SORT);
  const linkTo = useProfileHref();
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      {teacherProblem && (
        <div className="alert alert-warning" role="alert">
          {teacherProblem} <Link to={linkTo(null)}>Chiudi</Link>
        </div>
      )}
      {teacher && <TeacherPanel teacher={teacher} closeHref={linkTo(null)} />}
      <FilterBar
        label="Cerca negli insegnanti"
        query={query}
        search={{ label: 'Cerca', hint: 'Parte del nome, del cognome o dell’indirizzo e-mail.' }}
        geography
        selects={[KIND_FILTER, REVIEW_FILTER]}
        sortOptions={SORT_OPTIONS}
        defaultSort={DEFAULT_SORT}
        errors={problem?.errors}
      >
        {/* A plesso's teachers (a link from the plesso's page): new filters keep the plesso. */}
        {query.schoolSiteId && <input type="hidden" name="schoolSiteId" value={query.schoolSiteId} />}
      </FilterBar>
      {query.schoolSiteId && (
        <p>
          Solo gli insegnanti di un plesso.{' '}
          <Link to={list.hrefWith({ schoolSiteId: null })}>Mostra tutti i plessi</Link>
        </p>
      )}
      <ListResults
        query={query}
        result={result}
        problem={problem}
        caption="Insegnanti ed educatori registrati"
        columns={COLUMNS}
        defaultSort={DEFAULT_SORT}
        nouns={{ one: 'insegnante trovato', many: 'insegnanti trovati' }}
        noMatch="Nessun insegnante corrisponde alla ricerca e ai filtri."
        exportEndpoint={exportTeachers}
        exportName="insegnanti"
      />
    </>
  );
}
