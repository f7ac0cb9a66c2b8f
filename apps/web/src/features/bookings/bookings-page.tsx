import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Link,
  useFetcher,
  useLoaderData,
  useRevalidator,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import {
  BookingInputSchema,
  cancelBooking,
  createBooking,
  formatSlotWhen,
  getBookingByToken,
  listBookableSlots,
  type PublicSlot,
} from '@portale/shared/bookings';
import { Button } from 'design-react-kit';
import { CheckboxField } from '../../components/form/checkbox-field.tsx';
import { FieldError } from '../../components/form/field.tsx';
import { InputField } from '../../components/form/input-field.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { useCurrentPage } from '../../lib/use-current-page.ts';
import { INVALID_FORM_MESSAGE } from '../../lib/form-action.ts';

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
 * The page's action: cancelling a booking by the token of its e-mail link (the booking form posts to
 * the API itself). The router then loads the slots again, so the freed place shows at once.
 */
export async function action({ request }: ActionFunctionArgs): Promise<Notice | null> {
  const form = await request.formData();
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

type Errors = Record<string, string>;

/** The booking form of one slot. */
function BookingForm({ slot, onOutcome }: { slot: PublicSlot; onOutcome: (notice: Notice) => void }) {
  const [values, setValues] = useState({ name: '', email: '', institute: '', privacyAccepted: false });
  const [errors, setErrors] = useState<Errors>({});
  const [notice, setNotice] = useState<Notice | null>(null);
  const [sending, setSending] = useState(false);
  const noticeRef = useRef<HTMLDivElement>(null);
  const id = (field: string) => `prenota-${slot.id}-${field}`;
  const set = (name: keyof typeof values, value: string | boolean) =>
    setValues((v) => ({ ...v, [name]: value }));
  const show = (next: Notice) => {
    setNotice(next);
    requestAnimationFrame(() => noticeRef.current?.focus());
  };
  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = { slotId: slot.id, ...values };
    const parsed = BookingInputSchema.safeParse(input);
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      show({ kind: 'danger', text: INVALID_FORM_MESSAGE });
      return;
    }
    setSending(true);
    try {
      const body = await callApi(createBooking, { body: parsed.data });
      setErrors({});
      setValues({ name: '', email: '', institute: '', privacyAccepted: false });
      onOutcome({ kind: 'success', text: body.message });
    } catch (failure) {
      const found: Errors = {};
      if (failure instanceof ApiError)
        for (const [field, messages] of Object.entries(failure.body?.errors ?? {}))
          if (messages[0]) found[field] = messages[0];
      setErrors(found);
      const text =
        failure instanceof Error ? failure.message : 'Prenotazione non riuscita. Riprova più tardi.';
      // Full, or gone: the page shows the refusal next to the slot's new state.
      if (failure instanceof ApiError && (failure.status === 409 || failure.status === 429))
        onOutcome({ kind: 'danger', text });
      else show({ kind: 'danger', text });
    } finally {
      setSending(false);
    }
  }

  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label={`Prenota un posto: ${slot.title}`}
      data-testid={`booking-form-${slot.id}`}
    >
      <div
        ref={noticeRef}
        tabIndex={-1}
        role={notice?.kind === 'danger' ? 'alert' : 'status'}
        aria-live="polite"
      >
        {notice && <div className={`alert alert-${notice.kind}`}>{notice.text}</div>}
      </div>
      <div className="row">
        <InputField
          id={id('name')}
          label="Nome e cognome"
          fieldClassName="col-12 col-md-6 mb-3"
          type="text"
          autoComplete="name"
          value={values.name}
          onChange={(e) => set('name', e.target.value)}
          error={errors.name}
        />
        <InputField
          id={id('email')}
          label="Indirizzo e-mail"
          fieldClassName="col-12 col-md-6 mb-3"
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={(e) => set('email', e.target.value)}
          error={errors.email}
        />
        <InputField
          id={id('institute')}
          label="Istituto (facoltativo)"
          fieldClassName="col-12 mb-3"
          type="text"
          autoComplete="organization"
          value={values.institute}
          onChange={(e) => set('institute', e.target.value)}
          error={errors.institute}
        />
      </div>
      <CheckboxField
        id={id('privacyAccepted')}
        label={
          <>
            Ho letto l’<Link to="/privacy">informativa sulla privacy</Link>
          </>
        }
        fieldClassName="form-check mb-3"
        checked={values.privacyAccepted}
        onChange={(e) => set('privacyAccepted', e.target.checked)}
        error={errors.privacyAccepted}
      >
        <FieldError id={id('slotId')} error={errors.slotId} />
      </CheckboxField>
      <Button color="primary" type="submit" disabled={sending}>
        {sending ? 'Prenotazione in corso…' : 'Prenota'}
      </Button>
    </form>
  );
}

/** `/prenotazioni`: upcoming appointments with their free places, a booking form each, and the cancellation of an e-mailed link. */
export function Component() {
  const page = useCurrentPage();
  const { slots, cancel } = useLoaderData<Data>();
  const revalidator = useRevalidator();
  const [open, setOpen] = useState<number | null>(null);
  const [outcomes, setOutcomes] = useState<Record<number, Notice>>({});
  const outcome = (slotId: number, notice: Notice) => {
    setOutcomes((o) => ({ ...o, [slotId]: notice }));
    if (notice.kind === 'success') setOpen(null);
    void revalidator.revalidate();
    requestAnimationFrame(() => document.getElementById(`slot-outcome-${slotId}`)?.focus());
  };
  return (
    <div className="container my-5">
      <PageHeader title={page.title} description={page.description} />
      {cancel && <CancelPanel key={cancel.token} cancel={cancel} />}
      <p>Gli orari sono indicati in ora italiana. Tutti i campi sono obbligatori, salvo l’istituto.</p>
      {slots.length === 0 && <p>Al momento non ci sono appuntamenti prenotabili. Torna a trovarci presto.</p>}
      <ul className="list-unstyled" aria-label="Appuntamenti prenotabili">
        {slots.map((slot) => {
          const full = slot.freePlaces === 0;
          return (
            <li key={slot.id} className="border-bottom py-4" data-testid={`slot-${slot.id}`}>
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
                role={outcomes[slot.id]?.kind === 'danger' ? 'alert' : 'status'}
                aria-live="polite"
              >
                {outcomes[slot.id] && (
                  <div className={`alert alert-${outcomes[slot.id]!.kind}`}>{outcomes[slot.id]!.text}</div>
                )}
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
                    aria-expanded={open === slot.id}
                    aria-controls={`slot-form-${slot.id}`}
                    onClick={() => {
                      setOpen(open === slot.id ? null : slot.id);
                      setOutcomes(({ [slot.id]: _dropped, ...rest }) => rest);
                    }}
                  >
                    Prenota un posto<span className="visually-hidden"> per «{slot.title}»</span>
                  </Button>
                  <div id={`slot-form-${slot.id}`} hidden={open !== slot.id}>
                    {open === slot.id && (
                      <BookingForm slot={slot} onOutcome={(notice) => outcome(slot.id, notice)} />
                    )}
                  </div>
                </>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
