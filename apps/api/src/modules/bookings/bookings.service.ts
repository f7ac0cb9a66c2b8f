import {
  BOOKING_MESSAGES,
  dateToRomeLocal,
  formatSlotWhen,
  romeLocalToDate,
  slotRuleErrors,
  type SlotUpdate,
} from '@portale/shared/bookings';
import type { Db } from '../../db/client.ts';
import { withTransaction, type Tx } from '../../db/transaction.ts';
import { auditWrite, changedFields, type Actor } from '../../lib/audit.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { FieldErrors } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { enqueueMessage, type TemplateKey } from '../messages/index.ts';
import { bookingSequence, calendarAttachment, eventUid, type CalendarEvent } from './booking-calendar.ts';
import * as repo from './bookings.repository.ts';

/** What the booking e-mails need of the deployment: its secret and web address, and their sender. */
export interface BookingMailEnv {
  APP_SECRET: string;
  publicWebUrl: string;
  MAIL_FROM: string;
}

export const tokenNotFound = () => new HttpError(404, 'booking_not_found', BOOKING_MESSAGES.tokenNotFound);
export const slotNotFound = () => new HttpError(404, 'not_found', BOOKING_MESSAGES.slotNotFoundStaff);

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } } | undefined;
  return e?.code === '23505' || e?.cause?.code === '23505';
};

const whereOf = (slot: { place: string | null; onlineUrl: string | null }) =>
  [slot.place, slot.onlineUrl ? `online: ${slot.onlineUrl}` : null].filter(Boolean).join(' — ');

/** The programme as ORGANIZER of the events: the sender of the e-mails (`MAIL_FROM`). */
function organizerOf(mailFrom: string): CalendarEvent['organizer'] {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(mailFrom);
  return match
    ? { name: match[1]!.trim() || 'Portale Scuole', email: match[2]!.trim() }
    : { name: 'Portale Scuole', email: mailFrom.trim() };
}

type BookingParty = { id: number; name: string; email: string; createdAt: Date };
type SlotFacts = Pick<repo.SlotRow, 'title' | 'description' | 'startsAt' | 'endsAt' | 'place' | 'onlineUrl'>;

/** The e-mail about one booking, with its calendar event (one UID per booking and deployment). */
async function enqueueBookingMail(
  env: BookingMailEnv,
  tx: Tx,
  kind: { templateKey: TemplateKey; method: CalendarEvent['method']; description: string },
  booking: BookingParty,
  slot: SlotFacts,
  now: Date,
  extra: Record<string, string> = {},
) {
  const event: CalendarEvent = {
    uid: eventUid(`prenotazione-${booking.id}`, env),
    method: kind.method,
    sequence: bookingSequence(booking.createdAt, now),
    organizer: organizerOf(env.MAIL_FROM),
    attendee: { name: booking.name, email: booking.email },
    title: slot.title,
    description: kind.description,
    startsAt: slot.startsAt,
    endsAt: slot.endsAt,
    location: whereOf(slot) || null,
    url: slot.onlineUrl,
    stamp: now,
  };
  await enqueueMessage(tx, {
    templateKey: kind.templateKey,
    recipient: booking.email,
    data: {
      name: booking.name,
      title: slot.title,
      when: formatSlotWhen(slot.startsAt, slot.endsAt),
      where: whereOf(slot),
      ...extra,
    },
    attachments: [calendarAttachment(event)],
    now,
  });
}

/** A booking as the public form sends it. */
export interface BookingRequest {
  slotId: number;
  name: string;
  email: string;
  institute?: string | null;
}

/**
 * Books a place (issue 12) in one transaction: the place taken, the booking with the hash of its
 * cancel token (32 random bytes, sent only in the e-mail), and the confirmation e-mail with its
 * calendar event and cancel link. 409 when the address already holds a booking of the slot or the
 * slot is full; 422 on `slotId` when the slot is not bookable. Returns the slot booked.
 */
export async function bookPlace(
  db: Db,
  env: BookingMailEnv,
  input: BookingRequest,
  now: Date,
): Promise<repo.SlotRow> {
  const cancelToken = randomToken(32);
  try {
    return await withTransaction(db, async (tx) => {
      if (await repo.hasConfirmedBooking(tx, input.slotId, input.email))
        throw new HttpError(409, 'booking_duplicate', BOOKING_MESSAGES.duplicate);
      const taken = await repo.takePlace(tx, input.slotId, now);
      if (!taken) {
        if (await repo.findBookableSlot(tx, input.slotId, now))
          throw new HttpError(409, 'slot_full', BOOKING_MESSAGES.full);
        throw new FieldErrors({ slotId: [BOOKING_MESSAGES.slotNotFound] });
      }
      const bookingId = await repo.insertBooking(tx, {
        slotId: taken.id,
        name: input.name,
        email: input.email,
        institute: input.institute ?? null,
        cancelTokenHash: sha256(cancelToken),
        createdAt: now,
      });
      const cancelLink = `${env.publicWebUrl}/prenotazioni?token=${cancelToken}`;
      await enqueueBookingMail(
        env,
        tx,
        {
          templateKey: 'email.prenotazione-confermata',
          method: 'PUBLISH',
          description: `${taken.description}\n\nPer annullare la prenotazione: ${cancelLink}`.trim(),
        },
        { id: bookingId, name: input.name, email: input.email, createdAt: now },
        taken,
        now,
        { cancelLink },
      );
      return taken;
    });
  } catch (error) {
    // The same address booking twice at the same moment: the unique index refuses the second.
    if (isUniqueViolation(error)) throw new HttpError(409, 'booking_duplicate', BOOKING_MESSAGES.duplicate);
    throw error;
  }
}

/**
 * Cancels the confirmed booking of a cancel token, frees its place and sends the cancellation with a
 * calendar `CANCEL`, in one transaction. An unknown, used or cancelled token is a 404.
 */
export function cancelByToken(db: Db, env: BookingMailEnv, cancelToken: string, now: Date): Promise<void> {
  return withTransaction(db, async (tx) => {
    const found = await repo.findConfirmedBookingByTokenHash(tx, sha256(cancelToken), true);
    if (!found || !(await repo.cancelBookingAndFreePlace(tx, found.booking.id, found.slot.id, now)))
      throw tokenNotFound();
    await enqueueBookingMail(
      env,
      tx,
      {
        templateKey: 'email.prenotazione-annullata',
        method: 'CANCEL',
        description: found.slot.description,
      },
      found.booking,
      found.slot,
      now,
    );
  });
}

/** What the people who booked a slot see of it: a change to any of these is announced to them. */
const ANNOUNCED_FIELDS = ['title', 'startsAt', 'endsAt', 'place', 'onlineUrl'] as const;

/** A slot's editable fields as the form shows them (Rome wall-clock times). */
const editable = (slot: repo.SlotValues) => ({
  title: slot.title,
  description: slot.description,
  startsAt: dateToRomeLocal(slot.startsAt),
  endsAt: dateToRomeLocal(slot.endsAt),
  place: slot.place,
  onlineUrl: slot.onlineUrl,
  capacity: slot.capacity,
  published: slot.published,
});

function toValues(form: ReturnType<typeof editable>): repo.SlotValues {
  return { ...form, startsAt: romeLocalToDate(form.startsAt)!, endsAt: romeLocalToDate(form.endsAt)! };
}

/** A new slot and its audit, in one transaction. */
export function addSlot(db: Db, actor: Actor, values: repo.SlotValues): Promise<repo.SlotRow> {
  return withTransaction(db, async (tx) => {
    const row = await repo.insertSlot(tx, values, actor.userId, actor.at);
    await auditWrite(tx, actor, {
      action: 'booking-slot.created',
      entity: 'booking-slot',
      entityId: row.id,
      after: editable(row),
    });
    return row;
  });
}

/**
 * A slot's change, in one transaction: the merged form checked (422, also when the capacity falls
 * below the places booked), only the changed fields written and audited (nothing when nothing
 * changed), and whoever booked told of a change they see, with an event that replaces the old one in
 * their calendar. 404 for an unknown slot.
 */
export function changeSlot(
  db: Db,
  env: BookingMailEnv,
  actor: Actor,
  slotId: number,
  update: SlotUpdate,
): Promise<repo.SlotRow> {
  return withTransaction(db, async (tx) => {
    const current = await repo.findSlot(tx, slotId, true);
    if (!current) throw slotNotFound();
    const before = editable(current);
    const merged = {
      ...before,
      ...Object.fromEntries(Object.entries(update).filter(([, v]) => v !== undefined)),
    } as typeof before;
    const errors = slotRuleErrors(merged);
    if (merged.capacity < current.booked)
      errors.capacity = [BOOKING_MESSAGES.capacityBelowBooked(current.booked)];
    if (Object.keys(errors).length > 0) throw new FieldErrors(errors);
    const diff = changedFields(before, merged);
    if (Object.keys(diff.after).length === 0) return current;
    const all = toValues(merged);
    const changes = Object.fromEntries(
      Object.keys(diff.after).map((k) => [k, all[k as keyof repo.SlotValues]]),
    ) as Partial<repo.SlotValues>;
    const now = actor.at;
    const row = await repo.updateSlot(tx, slotId, changes, actor.userId, now);
    await auditWrite(tx, actor, {
      action: 'booking-slot.updated',
      entity: 'booking-slot',
      entityId: slotId,
      ...diff,
    });
    // Whoever booked gets the new facts and an event that replaces the old one in their calendar.
    if (ANNOUNCED_FIELDS.some((field) => field in diff.after)) {
      const kind = {
        templateKey: 'email.prenotazione-modificata',
        method: 'PUBLISH',
        description: row.description,
      } as const;
      for (const booking of await repo.confirmedBookingsOfSlot(tx, slotId))
        await enqueueBookingMail(env, tx, kind, booking, row, now);
    }
    return row;
  });
}
