import {
  Form,
  useActionData,
  useLoaderData,
  useLocation,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import {
  BOOKING_STATE_LABELS,
  BOOKING_STATES,
  dateToRomeLocal,
  exportSlotBookings,
  formatSlotWhen,
  getSlot,
  listSlotBookings,
  SlotUpdateSchema,
  updateSlot,
  type BookingSummary,
  type SlotSummary,
} from '@portale/shared/bookings';
import { Button } from 'design-react-kit';
import { getPage } from '@portale/shared/pages';
import { parseId } from '@portale/shared/validation';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar, type SelectFilter } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { callApi } from '../../lib/api-client.ts';
import { formatShortDateTime } from '../../lib/format.ts';
import { failureResult, text, type FormResult } from '../../lib/form-data.ts';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { SlotForm, slotFormValues } from './slot-form.tsx';
import { invalidForm } from '../../lib/form-action.ts';

const DEFAULT_SORT = 'createdAt';
const column = listColumnHelper<BookingSummary>();
const COLUMNS = [
  column.accessor('name', { header: 'Nome e cognome', meta: { rowHeader: true } }),
  column.accessor('email', { header: 'E-mail' }),
  column.accessor('institute', {
    header: 'Istituto',
    enableSorting: false,
    cell: (c) => c.getValue() ?? '—',
  }),
  column.accessor('state', { header: 'Stato', cell: (c) => BOOKING_STATE_LABELS[c.getValue()] }),
  column.accessor('createdAt', { header: 'Prenotata il', cell: (c) => formatShortDateTime(c.getValue()) }),
];
const SORT_OPTIONS = sortOptionsOf([
  { value: 'createdAt', label: 'Data di prenotazione' },
  { value: 'name', label: 'Nome' },
  { value: 'email', label: 'E-mail' },
  { value: 'state', label: 'Stato' },
]);
const FILTERS: SelectFilter[] = [
  {
    name: 'state',
    label: 'Stato',
    anyLabel: 'Tutte',
    options: BOOKING_STATES.map((s) => ({ value: s, label: BOOKING_STATE_LABELS[s] })),
  },
];

type Data = ListLoaderData<typeof listSlotBookings> & { slot: SlotSummary };

const slotIdOf = (params: LoaderFunctionArgs['params']) => parseId(params.slotId)!;

export async function loader({ request, params }: LoaderFunctionArgs): Promise<Data> {
  const slotId = slotIdOf(params);
  const [slot, list] = await Promise.all([
    callApi(getSlot, { params: { slotId } }, { signal: request.signal }),
    // The list loader sends only the query: the slot's id goes in the path it calls.
    loadList(
      { ...listSlotBookings, path: listSlotBookings.path.replace(':slotId', String(slotId)) },
      request,
    ),
  ]);
  return { ...list, slot } as Data;
}

/** Saves the changed fields of the slot (edit, publish, unpublish). */
export async function action({
  request,
  params,
}: ActionFunctionArgs): Promise<FormResult & { intent: string }> {
  const slotId = slotIdOf(params);
  const form = await request.formData();
  const intent = text(form, 'intent');
  const body =
    intent === 'unpublish'
      ? { published: false }
      : intent === 'publish'
        ? { published: true }
        : slotFormValues(form);
  const parsed = SlotUpdateSchema.safeParse(body);
  if (!parsed.success) return { intent, ...invalidForm(parsed.error.issues) };
  try {
    await callApi(updateSlot, { params: { slotId }, body });
    const message =
      intent === 'unpublish'
        ? 'Appuntamento ritirato: non è più visibile sul sito.'
        : intent === 'publish'
          ? 'Appuntamento pubblicato.'
          : 'Modifiche salvate.';
    return { intent, ok: true, message };
  } catch (error) {
    return { intent, ...failureResult(error) };
  }
}

/** Publish or unpublish in one click (the route action). */
function PublishToggle({ published }: { published: boolean }) {
  return (
    <Form method="post" preventScrollReset className="mb-4">
      <input type="hidden" name="intent" value={published ? 'unpublish' : 'publish'} />
      <Button color={published ? 'danger' : 'primary'} outline type="submit">
        {published ? 'Ritira dal sito' : 'Pubblica sul sito'}
      </Button>
    </Form>
  );
}

/** Staff: one appointment, its edit form, publication, and its bookings with export. */
export function Component() {
  const { slot, query, result, problem } = useLoaderData<Data>();
  const outcome = useActionData<FormResult & { intent: string }>();
  const created = new URLSearchParams(useLocation().search).get('creato') === '1';
  const page = getPage('portal.booking-slot');
  const full = slot.booked >= slot.capacity;
  const message = outcome?.message ?? (created ? 'Appuntamento creato.' : undefined);
  const tone = outcome ? (outcome.ok ? 'success' : 'danger') : 'success';
  return (
    <>
      <PageHeader title={`${page.title}: ${slot.title}`} description={page.description} />
      <div role={tone === 'danger' ? 'alert' : 'status'} aria-live="polite">
        {message && (
          <div className={`alert alert-${tone}`} data-testid="slot-message">
            {message}
          </div>
        )}
      </div>
      <dl className="row" data-testid="slot-facts">
        <dt className="col-sm-3">Quando</dt>
        <dd className="col-sm-9">{formatSlotWhen(slot.startsAt, slot.endsAt)}</dd>
        <dt className="col-sm-3">Dove</dt>
        <dd className="col-sm-9">{[slot.place, slot.onlineUrl].filter(Boolean).join(' — ')}</dd>
        <dt className="col-sm-3">Posti</dt>
        <dd className="col-sm-9">
          {slot.booked} prenotati su {slot.capacity}
          {full ? ' (completo)' : ''}
        </dd>
        <dt className="col-sm-3">Stato</dt>
        <dd className="col-sm-9">{slot.published ? 'Pubblicato sul sito' : 'Non pubblicato'}</dd>
      </dl>
      <PublishToggle published={slot.published} />

      <section className="mt-4" aria-labelledby="prenotazioni-title">
        <h2 id="prenotazioni-title" className="h3">
          Prenotazioni
        </h2>
        <FilterBar
          label="Cerca nelle prenotazioni"
          query={query}
          search={{ label: 'Cerca', hint: 'Parte del nome, dell’e-mail o dell’istituto.' }}
          selects={FILTERS}
          sortOptions={SORT_OPTIONS}
          defaultSort={DEFAULT_SORT}
          errors={problem?.errors}
        />
        <ListResults
          query={query}
          result={result}
          problem={problem}
          caption={`Prenotazioni di «${slot.title}»`}
          columns={COLUMNS}
          defaultSort={DEFAULT_SORT}
          nouns={{ one: 'prenotazione trovata', many: 'prenotazioni trovate' }}
          noMatch="Nessuna prenotazione corrisponde alla ricerca e ai filtri."
          exportEndpoint={exportSlotBookings}
          exportParams={{ slotId: slot.id }}
          exportName={`prenotazioni-${dateToRomeLocal(slot.startsAt).slice(0, 10)}`}
        />
      </section>

      <section className="mt-5" aria-labelledby="modifica-heading">
        <h2 id="modifica-heading" className="h3">
          Modifica l’appuntamento
        </h2>
        <SlotForm
          key={slot.updatedAt}
          slot={slot}
          errors={outcome?.intent === 'edit' ? (outcome.errors ?? {}) : {}}
          intent="edit"
          submitLabel="Salva le modifiche"
          prefix="modifica"
        />
      </section>
    </>
  );
}
