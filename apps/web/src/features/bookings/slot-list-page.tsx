import { Link, redirect, useActionData, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import {
  createSlot,
  exportSlots,
  formatSlotWhen,
  listSlots,
  SLOT_PERIOD_LABELS,
  SLOT_PERIODS,
  SlotInputSchema,
  type SlotSummary,
} from '@portale/shared/bookings';
import { getPage, href } from '@portale/shared/pages';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar, type SelectFilter } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { callApi } from '../../lib/api-client.ts';
import { type FormResult } from '../../lib/form-data.ts';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { SlotForm, slotFormValues } from './slot-form.tsx';
import { formAction } from '../../lib/form-action.ts';

const DEFAULT_SORT = 'startsAt';
const column = listColumnHelper<SlotSummary>();
const COLUMNS = [
  column.accessor('title', {
    header: 'Appuntamento',
    meta: { rowHeader: true },
    cell: (c) => <Link to={href('portal.booking-slot', { slotId: c.row.original.id })}>{c.getValue()}</Link>,
  }),
  column.accessor('startsAt', {
    header: 'Quando',
    cell: (c) => formatSlotWhen(c.getValue(), c.row.original.endsAt),
  }),
  column.accessor('place', {
    header: 'Dove',
    enableSorting: false,
    cell: (c) => c.getValue() ?? (c.row.original.onlineUrl ? 'Online' : ''),
  }),
  column.accessor('capacity', { header: 'Posti' }),
  column.accessor('booked', {
    header: 'Prenotati',
    cell: (c) => (c.getValue() >= c.row.original.capacity ? `${c.getValue()} (completo)` : c.getValue()),
  }),
  column.accessor('published', {
    header: 'Pubblicato',
    enableSorting: false,
    cell: (c) => (c.getValue() ? 'Sì' : 'No'),
  }),
];
const SORT_OPTIONS = sortOptionsOf([
  { value: 'startsAt', label: 'Data' },
  { value: 'title', label: 'Titolo' },
  { value: 'capacity', label: 'Posti' },
  { value: 'booked', label: 'Prenotati' },
]);
const FILTERS: SelectFilter[] = [
  {
    name: 'period',
    label: 'Periodo',
    anyLabel: 'Tutti',
    options: SLOT_PERIODS.map((p) => ({ value: p, label: SLOT_PERIOD_LABELS[p] })),
  },
  {
    name: 'published',
    label: 'Pubblicazione',
    anyLabel: 'Tutti',
    options: [
      { value: 'true', label: 'Pubblicati' },
      { value: 'false', label: 'Non pubblicati' },
    ],
  },
];

type Data = ListLoaderData<typeof listSlots>;

export function loader({ request }: LoaderFunctionArgs): Promise<Data> {
  return loadList(listSlots, request);
}

/** Creates a slot, then opens its page. */
export const action = formAction({
  read: slotFormValues,
  schema: SlotInputSchema,
  call: (_data, { values }) => callApi(createSlot, { body: values }),
  done: (slot) => redirect(`${href('portal.booking-slot', { slotId: slot.id })}?creato=1`),
});

/** Staff: the appointments of `/prenotazioni`, with the list pattern, and the creation of a new one. */
export function Component() {
  const { query, result, problem } = useLoaderData<Data>();
  const outcome = useActionData<FormResult>();
  const page = getPage('portal.bookings');
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      <FilterBar
        label="Cerca negli appuntamenti"
        query={query}
        search={{ label: 'Cerca', hint: 'Parte del titolo o del luogo.' }}
        selects={FILTERS}
        sortOptions={SORT_OPTIONS}
        defaultSort={DEFAULT_SORT}
        errors={problem?.errors}
      />
      <ListResults
        query={query}
        result={result}
        problem={problem}
        caption="Appuntamenti"
        columns={COLUMNS}
        defaultSort={DEFAULT_SORT}
        nouns={{ one: 'appuntamento trovato', many: 'appuntamenti trovati' }}
        noMatch="Nessun appuntamento corrisponde alla ricerca e ai filtri."
        exportEndpoint={exportSlots}
        exportName="appuntamenti"
      />
      <section className="mt-5" aria-labelledby="nuovo-appuntamento">
        <h2 id="nuovo-appuntamento" className="h3">
          Nuovo appuntamento
        </h2>
        <div role={outcome?.message ? 'alert' : undefined}>
          {outcome?.message && <div className="alert alert-danger">{outcome.message}</div>}
        </div>
        <SlotForm
          errors={outcome?.errors ?? {}}
          intent="create"
          submitLabel="Crea l’appuntamento"
          prefix="nuovo"
        />
      </section>
    </>
  );
}
