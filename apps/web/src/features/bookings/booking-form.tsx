// The booking form of one slot of `/prenotazioni`, and the step the page's action runs for it.
import { useEffect, useRef, useState } from 'react';
import { Button } from 'design-react-kit';
import { Link, useFetcher } from 'react-router';
import { BookingInputSchema, createBooking, type PublicSlot } from '@portale/shared/bookings';
import { parseId } from '@portale/shared/validation';
import { CheckboxField } from '../../components/form/checkbox-field.tsx';
import { FieldError } from '../../components/form/field.tsx';
import { InputField } from '../../components/form/input-field.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { checkForm, INVALID_FORM_MESSAGE } from '../../lib/form-action.ts';
import { failureResult, text } from '../../lib/form-data.ts';

/** The booking form's intent, posted by its fetcher to the bookings page's action. */
export const BOOK_INTENT = 'book';

export interface BookingOutcome {
  slotId: number;
  kind: 'success' | 'danger';
  text: string;
  errors?: Record<string, string>;
  /** Shown beside the slot's state (booked, full, gone, too many attempts) rather than in the form. */
  onSlot: boolean;
}

/**
 * A booking, as the page's action runs it: checked with the contract's schema first (a refusal sends
 * nothing), then made by the API. The router then loads the slots again, so the places are current.
 */
export async function bookingStep(form: FormData): Promise<BookingOutcome | null> {
  const slotId = parseId(text(form, 'slotId'));
  if (slotId === undefined) return null;
  const checked = checkForm(BookingInputSchema, {
    slotId,
    name: text(form, 'name'),
    email: text(form, 'email'),
    institute: text(form, 'institute'),
    privacyAccepted: form.get('privacyAccepted') === 'true',
  });
  if (!checked.ok)
    return {
      slotId,
      kind: 'danger',
      text: INVALID_FORM_MESSAGE,
      errors: checked.result.errors,
      onSlot: false,
    };
  try {
    const body = await callApi(createBooking, { body: checked.data });
    return { slotId, kind: 'success', text: body.message, onSlot: true };
  } catch (failure) {
    const result = failureResult(failure, 'Prenotazione non riuscita. Riprova più tardi.');
    // Full, or gone: the page shows the refusal next to the slot's new state.
    const onSlot = failure instanceof ApiError && (failure.status === 409 || failure.status === 429);
    return { slotId, kind: 'danger', text: result.message ?? '', errors: result.errors ?? {}, onSlot };
  }
}

/** The fetcher of a slot's booking form, which the slot's item reads too. */
export const bookingFetcherKey = (slotId: number) => `booking-${slotId}`;

/**
 * The booking form of one slot: its fetcher posts to the page's action (decision 045). A refusal of
 * the form's data shows here; the booking, or a refusal about the slot itself, beside the slot.
 */
export function BookingForm({ slot }: { slot: PublicSlot }) {
  const fetcher = useFetcher<BookingOutcome | null>({ key: bookingFetcherKey(slot.id) });
  const [values, setValues] = useState({ name: '', email: '', institute: '', privacyAccepted: false });
  const noticeRef = useRef<HTMLDivElement>(null);
  const sending = fetcher.state !== 'idle';
  const outcome = sending ? null : (fetcher.data ?? null);
  const notice = outcome && !outcome.onSlot ? outcome : null;
  const errors = outcome?.errors ?? {};
  useEffect(() => {
    if (notice) requestAnimationFrame(() => noticeRef.current?.focus());
  }, [notice]);
  const id = (field: string) => `prenota-${slot.id}-${field}`;
  const set = (name: keyof typeof values, value: string | boolean) =>
    setValues((v) => ({ ...v, [name]: value }));
  return (
    <fetcher.Form
      method="post"
      noValidate
      aria-label={`Prenota un posto: ${slot.title}`}
      data-testid={`booking-form-${slot.id}`}
    >
      <input type="hidden" name="intent" value={BOOK_INTENT} />
      <input type="hidden" name="slotId" value={slot.id} />
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
          name="name"
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
          name="email"
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
          name="institute"
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
        name="privacyAccepted"
        fieldClassName="form-check mb-3"
        label={
          <>
            Ho letto l’<Link to="/privacy">informativa sulla privacy</Link>
          </>
        }
        checked={values.privacyAccepted}
        onChange={(e) => set('privacyAccepted', e.target.checked)}
        error={errors.privacyAccepted}
      >
        <FieldError id={id('slotId')} error={errors.slotId} />
      </CheckboxField>
      <Button color="primary" type="submit" disabled={sending}>
        {sending ? 'Prenotazione in corso…' : 'Prenota'}
      </Button>
    </fetcher.Form>
  );
}
