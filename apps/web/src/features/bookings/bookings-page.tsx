import { useEffect, useRef, useState } from 'react';
import { Button } from 'design-react-kit';
import {
  Link,
  useFetcher,
  useLoaderData,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import {
  cancelBooking,
  formatSlotWhen,
  getBookingByToken,
  listBookableSlots,
  type PublicSlot,
} from '@portale/shared/bookings';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { useCurrentPage } from '../../lib/use-current-page.ts';
import {
  BOOK_INTENT,
  BookingForm,
  bookingFetcherKey,
  bookingStep,
  type BookingOutcome,
} from './booking-form.tsx';

type Notice = { kind: 'success' | 'danger'; text: string };

interface Data {
  slots: PublicSlot[];
  /** The booking of the e-mailed link (`?token=`), or the message when it opens nothing. */
  cancel: {
    token: string;
    booking: Awaited<ReturnType<typeof callApi<typeof getBookingByToken>>> | null;
    message: string | null;
  } | null;
}

/** Prerendered as its heading and a loading line until the API answers (components/page-shell.tsx). */
export const prerenderShell = true;

export async function loader({ request }: LoaderFunctionArgs): Promise<Data> {
  const token = new URL(request.url).searchParams.get('token');
  const slots = callApi(listBookableSlots, {}, { signal: request.signal });
  if (!token) return { slots: (await slots).items, cancel: null };
  const booking = await callApi(
    getBookingByToken,
    { params: { cancelToken: token } },
    { signal: request.signal },
  ).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return error;
    throw error;
  });
  return {
    slots: (await slots).items,
    cancel:
      booking instanceof ApiError
        ? { token, booking: null, message: booking.message }
        : { token, booking, message: null },
  };
}

const places = (n: number) => (n === 1 ? '1 posto libero' : `${n} posti liberi`);

function Where({ slot }: { slot: PublicSlot }) {
  return (
    <>
      {slot.place && <span>{slot.place}</span>}
      {slot.place && slot.onlineUrl && <span> — </span>}
      {slot.onlineUrl && <span>online (il collegamento è nella e-mail di conferma)</span>}
    </>
  );
}

/** The cancellation step of the e-mailed link: what will be cancelled, then a confirmation. */
/** The cancel link's intent, posted by the cancel panel's fetcher to this page's action. */
const CANCEL_INTENT = 'cancel';

/**
 * The page's action: a booking (`booking-form.tsx`), or cancelling one by the token of its e-mail
 * link. The router then loads the slots again, so the taken or freed place shows at once.
 */
export async function action({ request }: ActionFunctionArgs): Promise<Notice | BookingOutcome | null> {
  const form = await request.formData();
  if (form.get('intent') === BOOK_INTENT) return bookingStep(form);
  const token = String(form.get('token') ?? '');
  if (form.get('intent') !== CANCEL_INTENT || !token) return null;
  try {
    const body = await callApi(cancelBooking, { params: { cancelToken: token } });
    return { kind: 'success', text: body.message };
  } catch (error) {
    return {
      kind: 'danger',
      text: error instanceof Error ? error.message : 'Annullamento non riuscito. Riprova più tardi.',
    };
  }
}

function CancelPanel({ cancel }: { cancel: NonNullable<Data['cancel']> }) {
  const fetcher = useFetcher<Notice | null>();
  const busy = fetcher.state !== 'idle';
  const done = fetcher.data?.kind === 'success';
  // The action's answer once there is one; before it, why the link opens no booking.
  const notice: Notice | null =
    fetcher.data ?? (cancel.message ? { kind: 'danger', text: cancel.message } : null);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), []);

  return (
    <section
      ref={ref}
      tabIndex={-1}
      className="card card-bg p-4 mb-5"
      aria-labelledby="annulla-title"
      data-testid="cancel-panel"
    >
      <h2 id="annulla-title" className="h3">
        Annulla la prenotazione
      </h2>
      <div role={notice?.kind === 'danger' ? 'alert' : 'status'} aria-live="polite">
        {notice && <div className={`alert alert-${notice.kind}`}>{notice.text}</div>}
      </div>
      {cancel.booking && !done && (
        <>
          <p>
            Stai per annullare la prenotazione di <strong>{cancel.booking.name}</strong> per «
            {cancel.booking.slot.title}»,{' '}
            {formatSlotWhen(cancel.booking.slot.startsAt, cancel.booking.slot.endsAt)}.
          </p>
          <p>Il posto tornerà disponibile per altre persone. L’operazione non si può annullare.</p>
          <fetcher.Form method="post" className="d-inline">
            <input type="hidden" name="intent" value={CANCEL_INTENT} />
            <input type="hidden" name="token" value={cancel.token} />
            <Button type="submit" color="danger" className="me-3" disabled={busy}>
              {busy ? 'Annullamento in corso…' : 'Sì, annulla la prenotazione'}
            </Button>
          </fetcher.Form>
          <Link to="/prenotazioni" className="btn btn-outline-primary">
            No, mantieni la prenotazione
          </Link>
        </>
      )}
      {(done || !cancel.booking) && <Link to="/prenotazioni">Vedi gli appuntamenti disponibili</Link>}
    </section>
  );
}

/** One appointment: its places, the outcome of a booking, and its form behind a toggle. */
function SlotItem({
  slot,
  open,
  onToggle,
}: {
  slot: PublicSlot;
  open: boolean;
  onToggle: (open: boolean) => void;
}) {
  // The form's fetcher (decision 045), read here too: a booking that fills the slot removes the form
  // with the same answer that brings the outcome, so the item, not the form, shows it.
  const fetcher = useFetcher<BookingOutcome | null>({ key: bookingFetcherKey(slot.id) });
  const result = fetcher.state === 'idle' ? fetcher.data : null;
  const outcome = result?.onSlot ? result : null;
  const formOpen = open && result?.kind !== 'success';
  const full = slot.freePlaces === 0;
  useEffect(() => {
    if (outcome) requestAnimationFrame(() => document.getElementById(`slot-outcome-${slot.id}`)?.focus());
  }, [outcome, slot.id]);
  return (
    <li className="border-bottom py-4" data-testid={`slot-${slot.id}`}>
      <h2 className="h4 mb-1" id={`slot-title-${slot.id}`}>
        {slot.title}
      </h2>
      <p className="mb-1 fw-semibold">{formatSlotWhen(slot.startsAt, slot.endsAt)}</p>
      <p className="mb-1">
        <Where slot={slot} />
      </p>
      {slot.description && <p className="mb-2">{slot.description}</p>}
      <div
        id={`slot-outcome-${slot.id}`}
        tabIndex={-1}
        role={outcome?.kind === 'danger' ? 'alert' : 'status'}
        aria-live="polite"
      >
        {outcome && <div className={`alert alert-${outcome.kind}`}>{outcome.text}</div>}
      </div>
      <p className="mb-3">
        {full ? (
          <span className="badge bg-secondary" data-testid="slot-full">
            Completo
          </span>
        ) : (
          <span className="badge bg-success" data-testid="slot-free">
            {places(slot.freePlaces)}
          </span>
        )}{' '}
        <span className="small">su {slot.capacity}</span>
      </p>
      {!full && (
        <>
          <Button
            type="button"
            color="primary"
            outline
            className="mb-3"
            aria-expanded={formOpen}
            aria-controls={`slot-form-${slot.id}`}
            onClick={() => {
              // A new attempt starts clean: the last outcome goes.
              if (fetcher.data) fetcher.reset();
              onToggle(!formOpen);
            }}
          >
            Prenota un posto<span className="visually-hidden"> per «{slot.title}»</span>
          </Button>
          <div id={`slot-form-${slot.id}`} hidden={!formOpen}>
            {formOpen && <BookingForm slot={slot} />}
          </div>
        </>
      )}
    </li>
  );
}

/** `/prenotazioni`: upcoming appointments with their free places, a booking form each, and the cancellation of an e-mailed link. */
export function Component() {
  const page = useCurrentPage();
  const { slots, cancel } = useLoaderData<Data>();
  const [open, setOpen] = useState<number | null>(null);
  return (
    <div className="container my-5">
      <PageHeader title={page.title} description={page.description} />
      {cancel && <CancelPanel key={cancel.token} cancel={cancel} />}
      <p>Gli orari sono indicati in ora italiana. Tutti i campi sono obbligatori, salvo l’istituto.</p>
      {slots.length === 0 && <p>Al momento non ci sono appuntamenti prenotabili. Torna a trovarci presto.</p>}
      <ul className="list-unstyled" aria-label="Appuntamenti prenotabili">
        {slots.map((slot) => (
          <SlotItem
            key={slot.id}
            slot={slot}
            open={open === slot.id}
            onToggle={(next) => setOpen(next ? slot.id : null)}
          />
        ))}
      </ul>
    </div>
  );
}
