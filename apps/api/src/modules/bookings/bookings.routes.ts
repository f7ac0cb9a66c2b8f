import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  BOOKING_MESSAGES,
  BOOKING_STATE_LABELS,
  cancelBooking,
  createBooking,
  createSlot,
  dateToRomeLocal,
  exportSlotBookings,
  exportSlots,
  formatSlotWhen,
  getBookingByToken,
  getSlot,
  listBookableSlots,
  listSlotBookings,
  listSlots,
  romeLocalToDate,
  slotRuleErrors,
  updateSlot,
  type BookingSummary,
  type SlotSummary,
} from '@portale/shared/bookings';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite, changedFields } from '../../lib/audit.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { FieldErrors } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { forEachBatch } from '../../lib/list.ts';
import { enqueueMessage, type TemplateKey } from '../messages/index.ts';
import { bookingSequence, calendarAttachment, eventUid, type CalendarEvent } from './booking-calendar.ts';
import * as repo from './bookings.repository.ts';

/**
 * Booking attempts in a 10-minute window (issue 35, item 9; decision 040): per e-mail address, the
 * person booking (a retry, a typo), at most `perEmail`; per IP at most `max` — a school's staff share
 * one address, so the IP's budget is for many people, and still bounds a flood from one address.
 */
export const BOOKING_RATE_LIMIT = { max: 60, perEmail: 10, timeWindow: 10 * 60_000 };

/** The e-mailed token: 32 random bytes, base64url. Any other shape is the same 404 as an unknown one. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const EXPORT_COLUMNS: ExportColumn<BookingSummary>[] = [
  { header: 'Nome e cognome', value: (r) => r.name },
  { header: 'E-mail', value: (r) => r.email },
  { header: 'Istituto', value: (r) => r.institute },
  { header: 'Stato', value: (r) => BOOKING_STATE_LABELS[r.state] },
  { header: 'Prenotata il', value: (r) => new Date(r.createdAt) },
  { header: 'Annullata il', value: (r) => (r.cancelledAt ? new Date(r.cancelledAt) : null) },
];

const SLOT_EXPORT_COLUMNS: ExportColumn<SlotSummary>[] = [
  { header: 'Titolo', value: (r) => r.title },
  { header: 'Inizio', value: (r) => new Date(r.startsAt) },
  { header: 'Fine', value: (r) => new Date(r.endsAt) },
  { header: 'Luogo', value: (r) => r.place },
  { header: 'Collegamento online', value: (r) => r.onlineUrl },
  { header: 'Posti', value: (r) => r.capacity },
  { header: 'Prenotati', value: (r) => r.booked },
  { header: 'Pubblicato', value: (r) => r.published },
];

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } } | undefined;
  return e?.code === '23505' || e?.cause?.code === '23505';
};

const tokenNotFound = () => new HttpError(404, 'booking_not_found', BOOKING_MESSAGES.tokenNotFound);
const slotNotFound = () => new HttpError(404, 'not_found', BOOKING_MESSAGES.slotNotFoundStaff);

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
  app: FastifyInstance,
  tx: Parameters<typeof enqueueMessage>[0],
  kind: { templateKey: TemplateKey; method: CalendarEvent['method']; description: string },
  booking: BookingParty,
  slot: SlotFacts,
  now: Date,
  extra: Record<string, string> = {},
) {
  const event: CalendarEvent = {
    uid: eventUid(`prenotazione-${booking.id}`, app.env),
    method: kind.method,
    sequence: bookingSequence(booking.createdAt, now),
    organizer: organizerOf(app.env.MAIL_FROM),
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

/** What the people who booked a slot see of it: a change to any of these is announced to them. */
const ANNOUNCED_FIELDS = ['title', 'startsAt', 'endsAt', 'place', 'onlineUrl'] as const;

async function slotOf(request: FastifyRequest) {
  const { slotId } = request.params as { slotId: number };
  const slot = await repo.findSlot(request.server.db, slotId);
  return slot && { ownerUserIds: [] };
}

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

/** Bookings (issue 12): the public flow (list, book, cancel) and the staff's slots and lists. */
export async function bookingRoutes(app: FastifyInstance) {
  registerEndpoint(app, listBookableSlots, {}, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { items: await repo.listBookableSlots(app.db, app.clock.now()) };
  });

  const bookingLimit = {
    rateLimit: {
      max: BOOKING_RATE_LIMIT.max,
      timeWindow: BOOKING_RATE_LIMIT.timeWindow,
      errorResponseBuilder: (_req: unknown, ctx: { ttl: number }) =>
        new HttpError(429, 'rate_limited', BOOKING_MESSAGES.rateLimited, {
          'retry-after': String(Math.max(1, Math.ceil(ctx.ttl / 1000))),
        }),
    },
  };

  registerEndpoint(app, createBooking, { config: bookingLimit }, async (request) => {
    const input = request.body;
    const now = app.clock.now();
    const person = await app.ceilings.count(
      `booking|${input.email.toLowerCase()}`,
      BOOKING_RATE_LIMIT.timeWindow,
    );
    if (person.count > BOOKING_RATE_LIMIT.perEmail) {
      throw new HttpError(429, 'rate_limited', BOOKING_MESSAGES.rateLimited, {
        'retry-after': String(Math.max(1, Math.ceil(person.resetInMs / 1000))),
      });
    }
    const token = randomToken(32);
    try {
      const slot = await withTransaction(app.db, async (tx) => {
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
          cancelTokenHash: sha256(token),
          createdAt: now,
        });
        const cancelLink = `${app.env.publicWebUrl}/prenotazioni?token=${token}`;
        await enqueueBookingMail(
          app,
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
      return { message: BOOKING_MESSAGES.confirmed, slot: repo.toPublicSlot(slot) };
    } catch (error) {
      // The same address booking twice at the same moment: the unique index refuses the second.
      if (isUniqueViolation(error)) throw new HttpError(409, 'booking_duplicate', BOOKING_MESSAGES.duplicate);
      throw error;
    }
  });

  registerEndpoint(app, getBookingByToken, {}, async (request, reply) => {
    const { cancelToken } = request.params;
    if (!TOKEN_SHAPE.test(cancelToken)) throw tokenNotFound();
    const found = await repo.findConfirmedBookingByTokenHash(app.db, sha256(cancelToken));
    if (!found) throw tokenNotFound();
    reply.header('cache-control', 'no-store');
    return { name: found.booking.name, state: found.booking.state, slot: repo.toPublicSlot(found.slot) };
  });

  registerEndpoint(app, cancelBooking, {}, async (request) => {
    const { cancelToken } = request.params;
    if (!TOKEN_SHAPE.test(cancelToken)) throw tokenNotFound();
    const now = app.clock.now();
    await withTransaction(app.db, async (tx) => {
      const found = await repo.findConfirmedBookingByTokenHash(tx, sha256(cancelToken), true);
      if (!found || !(await repo.cancelBookingAndFreePlace(tx, found.booking.id, found.slot.id, now)))
        throw tokenNotFound();
      await enqueueBookingMail(
        app,
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
    return { message: BOOKING_MESSAGES.cancelled };
  });

  // ---- Staff ----

  registerEndpoint(app, listSlots, {}, (request) => repo.listSlots(app.db, request.query, app.clock.now()));

  registerEndpoint(app, exportSlots, {}, async (request, reply) => {
    const { format, ...filters } = request.query;
    const now = app.clock.now();
    return sendExport(reply, {
      format,
      name: 'appuntamenti',
      sheetName: 'Appuntamenti',
      columns: SLOT_EXPORT_COLUMNS,
      total: await repo.countSlots(app.db, filters, now),
      today: now,
      produce: (write) =>
        forEachBatch(app.db, repo.slotListQuery(app.db, filters, now), repo.slotFromRaw, write),
    });
  });

  registerEndpoint(app, createSlot, {}, async (request, reply) => {
    const body = request.body;
    const values: repo.SlotValues = {
      title: body.title,
      description: body.description,
      startsAt: romeLocalToDate(body.startsAt)!,
      endsAt: romeLocalToDate(body.endsAt)!,
      place: body.place,
      onlineUrl: body.onlineUrl,
      capacity: body.capacity,
      published: body.published,
    };
    const slot = await withTransaction(app.db, async (tx) => {
      const row = await repo.insertSlot(tx, values, request.auth?.user.id ?? null, app.clock.now());
      await auditWrite(tx, request, {
        action: 'booking-slot.created',
        entity: 'booking-slot',
        entityId: row.id,
        after: editable(row),
      });
      return row;
    });
    reply.header('location', `/api/booking-slots/${slot.id}`);
    return repo.toSlotSummary(slot);
  });

  registerEndpoint(app, getSlot, { resource: slotOf }, async (request) => {
    const slot = await repo.findSlot(app.db, request.params.slotId);
    if (!slot) throw slotNotFound();
    return repo.toSlotSummary(slot);
  });

  registerEndpoint(app, updateSlot, { resource: slotOf }, async (request) => {
    const { slotId } = request.params;
    const slot = await withTransaction(app.db, async (tx) => {
      const current = await repo.findSlot(tx, slotId, true);
      if (!current) throw slotNotFound();
      const before = editable(current);
      const merged = {
        ...before,
        ...Object.fromEntries(Object.entries(request.body).filter(([, v]) => v !== undefined)),
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
      const now = app.clock.now();
      const row = await repo.updateSlot(tx, slotId, changes, request.auth?.user.id ?? null, now);
      await auditWrite(tx, request, {
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
          await enqueueBookingMail(app, tx, kind, booking, row, now);
      }
      return row;
    });
    return repo.toSlotSummary(slot);
  });

  registerEndpoint(app, listSlotBookings, { resource: slotOf }, (request) =>
    repo.listBookings(app.db, request.params.slotId, request.query),
  );

  registerEndpoint(app, exportSlotBookings, { resource: slotOf }, async (request, reply) => {
    const { slotId } = request.params;
    const { format, ...filters } = request.query;
    const total = await repo.countBookings(app.db, slotId, filters);
    return sendExport(reply, {
      format,
      name: `prenotazioni-appuntamento-${slotId}`,
      sheetName: 'Prenotazioni',
      columns: EXPORT_COLUMNS,
      total,
      today: app.clock.now(),
      produce: (write) =>
        forEachBatch(app.db, repo.bookingListQuery(app.db, slotId, filters), repo.toBookingSummary, write),
    });
  });
}
