import { createHash } from 'node:crypto';

/**
 * An iCalendar (RFC 5545, iTIP RFC 5546) event for a booking, attached to its e-mails: `PUBLISH` when
 * it is confirmed or its slot changes, `CANCEL` when it is cancelled. A calendar keeps one event per
 * `UID` and replaces it when a message brings a higher `SEQUENCE`.
 */

const escapeText = (value: string) =>
  value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** A parameter value (CN=…) in double quotes, without the characters a quoted value cannot hold. */
const quoteParam = (value: string) =>
  `"${[...value].map((c) => (c === '"' || c.charCodeAt(0) < 0x20 ? ' ' : c)).join('')}"`;

const utcStamp = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** Folds a content line at 75 octets without splitting a UTF-8 character (RFC 5545 §3.1). */
function fold(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    const limit = out.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

export interface CalendarEvent {
  /** Unique per booking and per deployment (see `bookingEventUid`). */
  uid: string;
  method: 'PUBLISH' | 'CANCEL';
  /** Grows with every change the booker is told of (see `bookingSequence`). */
  sequence: number;
  /** The programme's sender address (ORGANIZER) and the booker's (ATTENDEE): for events sent by e-mail. */
  organizer?: { name: string; email: string };
  attendee?: { name: string; email: string };
  title: string;
  description: string;
  startsAt: Date;
  endsAt: Date;
  location: string | null;
  url: string | null;
  stamp: Date;
}

export function bookingCalendar(event: CalendarEvent): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Portale Scuole//Prenotazioni//IT',
    'CALSCALE:GREGORIAN',
    `METHOD:${event.method}`,
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `SEQUENCE:${event.sequence}`,
    `STATUS:${event.method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED'}`,
    `DTSTAMP:${utcStamp(event.stamp)}`,
    `DTSTART:${utcStamp(event.startsAt)}`,
    `DTEND:${utcStamp(event.endsAt)}`,
    `SUMMARY:${escapeText(event.title)}`,
    ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
    ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
    ...(event.url ? [`URL:${event.url}`] : []),
    ...(event.organizer
      ? [`ORGANIZER;CN=${quoteParam(event.organizer.name)}:mailto:${event.organizer.email}`]
      : []),
    ...(event.attendee
      ? [`ATTENDEE;CN=${quoteParam(event.attendee.name)};ROLE=REQ-PARTICIPANT:mailto:${event.attendee.email}`]
      : []),
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}

/**
 * `SEQUENCE` of a booking's event: the whole seconds from the booking's creation to the change being
 * announced (0 for the confirmation). It only grows, needs no stored counter, and a slot changed twice
 * in one second still differs from the confirmation.
 */
export function bookingSequence(bookedAt: Date, changedAt: Date): number {
  return Math.max(0, Math.floor((changedAt.getTime() - bookedAt.getTime()) / 1000));
}

/**
 * An event's UID: the record (`prenotazione-12`) at this deployment, named by its public host and a
 * digest of its secret, so that two portals (or a test and a production one on `localhost`) never
 * give two different events one UID.
 */
export function eventUid(record: string, env: { APP_SECRET: string; publicWebUrl: string }): string {
  const deployment = createHash('sha256').update(`calendar:${env.APP_SECRET}`).digest('hex').slice(0, 12);
  return `${record}-${deployment}@${new URL(env.publicWebUrl).hostname || 'portale-scuole'}`;
}

/** The calendar attachment of a booking e-mail, with the iTIP method in its content type. */
export function calendarAttachment(event: CalendarEvent) {
  const method = event.method;
  return {
    name: method === 'CANCEL' ? 'appuntamento-annullato.ics' : 'appuntamento.ics',
    contentType: `text/calendar; charset=utf-8; method=${method}`,
    base64: Buffer.from(bookingCalendar(event), 'utf8').toString('base64'),
  };
}
