import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { ExportFormatSchema } from '../lists/list-query.ts';
import { IdParamSchema } from '../validation/index.ts';
import {
  BookingByTokenSchema,
  BookingCancelledSchema,
  BookingCreatedSchema,
  BookingFiltersSchema,
  BookingInputSchema,
  BookingListQuerySchema,
  BookingListResponseSchema,
  CancelTokenParamsSchema,
  PublicSlotListSchema,
  SlotInputSchema,
  SlotFiltersSchema,
  SlotListQuerySchema,
  SlotListResponseSchema,
  SlotSummarySchema,
  SlotUpdateSchema,
} from './bookings.schemas.ts';

/** Contracts of bookings (issue 12): the public booking flow and the staff's slots. */

export const listBookableSlots = defineEndpoint({
  method: 'GET',
  path: '/api/booking-slots',
  permission: 'public',
  tag: 'bookings',
  summary: 'Appuntamenti prenotabili: pubblicati, non ancora iniziati, con i posti liberi',
  response: PublicSlotListSchema,
});

export const createBooking = defineEndpoint({
  method: 'POST',
  path: '/api/bookings',
  permission: 'public',
  tag: 'bookings',
  summary: 'Prenota un posto (409 se l’appuntamento è al completo)',
  body: BookingInputSchema,
  response: BookingCreatedSchema,
  status: 201,
});

export const getBookingByToken = defineEndpoint({
  method: 'GET',
  path: '/api/bookings/:cancelToken',
  permission: 'public',
  tag: 'bookings',
  summary: 'La prenotazione del collegamento ricevuto per e-mail (prima di annullarla)',
  params: CancelTokenParamsSchema,
  response: BookingByTokenSchema,
});

export const cancelBooking = defineEndpoint({
  method: 'DELETE',
  path: '/api/bookings/:cancelToken',
  permission: 'public',
  tag: 'bookings',
  summary: 'Annulla una prenotazione e libera il posto',
  params: CancelTokenParamsSchema,
  response: BookingCancelledSchema,
});

const SlotParams = z.object({ slotId: IdParamSchema });

export const listSlots = defineEndpoint({
  method: 'GET',
  path: '/api/booking-slots/staff',
  permission: 'read:booking',
  tag: 'bookings',
  summary: 'Tutti gli appuntamenti (staff): ricerca, filtri, ordinamento e pagine',
  query: SlotListQuerySchema,
  response: SlotListResponseSchema,
});

export const exportSlots = defineEndpoint({
  method: 'GET',
  path: '/api/booking-slots/staff/export',
  permission: 'export:booking',
  tag: 'bookings',
  summary: 'Esporta gli appuntamenti filtrati (CSV o XLSX)',
  query: SlotFiltersSchema.extend(ExportFormatSchema.shape),
  response: z.string(),
  download: true,
});

export const createSlot = defineEndpoint({
  method: 'POST',
  path: '/api/booking-slots',
  permission: 'create:booking',
  tag: 'bookings',
  summary: 'Crea un appuntamento',
  body: SlotInputSchema,
  response: SlotSummarySchema,
  status: 201,
});

export const getSlot = defineEndpoint({
  method: 'GET',
  path: '/api/booking-slots/:slotId',
  permission: 'read:booking',
  tag: 'bookings',
  summary: "Scheda dell'appuntamento (staff)",
  params: SlotParams,
  response: SlotSummarySchema,
});

export const updateSlot = defineEndpoint({
  method: 'PATCH',
  path: '/api/booking-slots/:slotId',
  permission: 'update:booking',
  tag: 'bookings',
  summary: "Modifica, pubblica o ritira l'appuntamento",
  params: SlotParams,
  body: SlotUpdateSchema,
  response: SlotSummarySchema,
});

export const listSlotBookings = defineEndpoint({
  method: 'GET',
  path: '/api/booking-slots/:slotId/bookings',
  permission: 'read:booking',
  tag: 'bookings',
  summary: "Le prenotazioni dell'appuntamento",
  params: SlotParams,
  query: BookingListQuerySchema,
  response: BookingListResponseSchema,
});

export const exportSlotBookings = defineEndpoint({
  method: 'GET',
  path: '/api/booking-slots/:slotId/bookings/export',
  permission: 'export:booking',
  tag: 'bookings',
  summary: "Esporta le prenotazioni dell'appuntamento (CSV o XLSX)",
  params: SlotParams,
  query: BookingFiltersSchema.extend(ExportFormatSchema.shape),
  response: z.string(),
  download: true,
});
