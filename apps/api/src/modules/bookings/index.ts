// The face of modules/bookings: what other modules may import from it (decision 044). Nothing else leaves it.
export { bookingCalendar, bookingSequence, eventUid } from './booking-calendar.ts';
export { BOOKINGS_TEMPLATES } from './bookings.templates.ts';
