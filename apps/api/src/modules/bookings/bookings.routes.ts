import type { FastifyInstance } from 'fastify';
import {
  BOOKING_MESSAGES,
  BOOKING_STATE_LABELS,
  cancelBooking,
  createBooking,
  createSlot,
  exportSlotBookings,
  exportSlots,
  getBookingByToken,
  getSlot,
  listBookableSlots,
  listSlotBookings,
  listSlots,
  romeLocalToDate,
  updateSlot,
  type BookingSummary,
  type SlotSummary,
} from '@portale/shared/bookings';
import { actorOf } from '../../lib/audit.ts';
import { sha256 } from '../../lib/crypto.ts';
import { registerEndpoint, type RequestWithParams } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { HttpError } from '../../lib/http-error.ts';
import { forEachBatch } from '../../lib/list.ts';
import * as repo from './bookings.repository.ts';
import {
  addSlot,
  bookPlace,
  cancelByToken,
  changeSlot,
  slotNotFound,
  tokenNotFound,
} from './bookings.service.ts';

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

async function slotOf(request: RequestWithParams<{ slotId: number }>) {
  const { slotId } = request.params;
  const slot = await repo.findSlot(request.server.db, slotId);
  return slot && { ownerUserIds: [] };
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
    const person = await app.ceilings.count(
      `booking|${input.email.toLowerCase()}`,
      BOOKING_RATE_LIMIT.timeWindow,
    );
    if (person.count > BOOKING_RATE_LIMIT.perEmail) {
      throw new HttpError(429, 'rate_limited', BOOKING_MESSAGES.rateLimited, {
        'retry-after': String(Math.max(1, Math.ceil(person.resetInMs / 1000))),
      });
    }
    const slot = await bookPlace(app.db, app.env, input, app.clock.now());
    return { message: BOOKING_MESSAGES.confirmed, slot: repo.toPublicSlot(slot) };
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
    await cancelByToken(app.db, app.env, cancelToken, app.clock.now());
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
    const slot = await addSlot(app.db, actorOf(request), values);
    reply.header('location', `/api/booking-slots/${slot.id}`);
    return repo.toSlotSummary(slot);
  });

  registerEndpoint(app, getSlot, { resource: slotOf }, async (request) => {
    const slot = await repo.findSlot(app.db, request.params.slotId);
    if (!slot) throw slotNotFound();
    return repo.toSlotSummary(slot);
  });

  registerEndpoint(app, updateSlot, { resource: slotOf }, async (request) => {
    const slot = await changeSlot(app.db, app.env, actorOf(request), request.params.slotId, request.body);
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
