import { useState } from 'react';
import { Link, redirect, useActionData, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { can, ROLE_LABELS } from '@portale/shared/auth';
import { getPage, href } from '@portale/shared/pages';
import {
  createUser,
  exportUsers,
  listUsers,
  UserCreateSchema,
  type UserSummary,
} from '@portale/shared/users';
import { Button } from 'design-react-kit';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { callApi } from '../../lib/api-client.ts';
import { text, type FormResult } from '../../lib/form-data.ts';
import { formatShortDateTime } from '../../lib/format.ts';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { useSession } from '../../lib/session.ts';
import { accessOf } from './user-access-fields.tsx';
import { UserStatusBadges } from './user-badges.tsx';
import { UserCreateForm } from './user-create-form.tsx';
import { LOCKED_FILTER, PERMISSION_FILTER, ROLE_FILTER, STATUS_FILTER } from './user-labels.ts';
import { formAction } from '../../lib/form-action.ts';

const DEFAULT_SORT = 'name';
const column = listColumnHelper<UserSummary>();
const COLUMNS = [
  column.accessor((u) => `${u.lastName} ${u.firstName}`, {
    id: 'name',
    header: 'Cognome e nome',
    meta: { rowHeader: true },
    cell: (c) => <Link to={href('portal.user', { userId: c.row.original.id })}>{c.getValue()}</Link>,
  }),
  column.accessor('email', { header: 'E-mail' }),
  column.accessor('roles', {
    header: 'Ruoli e permessi',
    enableSorting: false,
    cell: (c) => {
      const labels = [
        ...c.getValue().map((r) => ROLE_LABELS[r]),
        ...c.row.original.permissions.map((p) => `permesso ${p}`),
      ];
      return labels.length ? labels.join(', ') : <span className="text-muted">nessuno</span>;
    },
  }),
  column.accessor('status', { header: 'Stato', cell: (c) => <UserStatusBadges user={c.row.original} /> }),
  column.accessor('lastLoginAt', {
    header: 'Ultimo accesso',
    cell: (c) => {
      const at = c.getValue();
      return at ? (
        <time dateTime={at}>{formatShortDateTime(at)}</time>
      ) : (
        <span className="text-muted">mai</span>
      );
    },
  }),
];
const SORT_OPTIONS = sortOptionsOf([
  { value: 'name', label: 'Cognome e nome' },
  { value: 'email', label: 'E-mail' },
  { value: 'status', label: 'Stato' },
  { value: 'lastLoginAt', label: 'Ultimo accesso' },
  { value: 'createdAt', label: 'Data di creazione' },
]);

type Data = ListLoaderData<typeof listUsers>;

export function loader({ request }: LoaderFunctionArgs): Promise<Data> {
  return loadList(listUsers, request);
}

/** Creates a user (checked first with the contract's schema), then opens their page. */
export const action = formAction({
  read: (form) => ({
    firstName: text(form, 'firstName'),
    lastName: text(form, 'lastName'),
    email: text(form, 'email'),
    ...accessOf(form),
  }),
  schema: UserCreateSchema,
  call: (body) => callApi(createUser, { body }),
  done: (user) => redirect(`${href('portal.user', { userId: user.id })}?creato=1`),
  fallback: 'Creazione non riuscita. Riprova più tardi.',
});

/** Super-admin, Cromos and `user.index`: the users of the portal; managers also create them. */
export function Component() {
  const { query, result, problem } = useLoaderData<Data>();
  const created = useActionData<FormResult>();
  const { user } = useSession();
  const [creating, setCreating] = useState(Boolean(created));
  const page = getPage('portal.users');
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      {user && can(user, 'create:user') && (
        <section aria-labelledby="nuovo-utente-title" className="mb-5">
          <h2 id="nuovo-utente-title" className="visually-hidden">
            Nuovo utente
          </h2>
          <Button
            type="button"
            color="primary"
            aria-expanded={creating}
            aria-controls="nuovo-utente"
            onClick={() => setCreating((v) => !v)}
          >
            {creating ? 'Chiudi il modulo del nuovo utente' : 'Nuovo utente'}
          </Button>
          {creating && (
            <div id="nuovo-utente" className="mt-3 p-3 border rounded">
              <UserCreateForm actor={user} result={created} />
            </div>
          )}
        </section>
      )}
      <FilterBar
        label="Cerca negli utenti"
        query={query}
        search={{ label: 'Cerca', hint: 'Parte del nome, del cognome o dell’indirizzo e-mail.' }}
        selects={[ROLE_FILTER, PERMISSION_FILTER, STATUS_FILTER, LOCKED_FILTER]}
        sortOptions={SORT_OPTIONS}
        defaultSort={DEFAULT_SORT}
        errors={problem?.errors}
      />
      <ListResults
        query={query}
        result={result}
        problem={problem}
        caption="Utenti del portale"
        columns={COLUMNS}
        defaultSort={DEFAULT_SORT}
        nouns={{ one: 'utente trovato', many: 'utenti trovati' }}
        noMatch="Nessun utente corrisponde alla ricerca e ai filtri."
        exportEndpoint={exportUsers}
        exportName="utenti"
      />
    </>
  );
}
