import type { Visit } from '@portale/shared/field-work';
import { bookingCalendar, bookingSequence, eventUid } from '../bookings/index.ts';

/** A planned visit as an iCalendar (RFC 5545) event: UTC times, the plesso's address as the location. */
export function visitCalendar(
  visit: Visit,
  site: {
    name: string;
    address: string | null;
    postalCode: string | null;
    municipalityName: string;
    province: string;
  },
  opts: { stamp: Date; env: { APP_SECRET: string; publicWebUrl: string } },
): string {
  const location = [
    site.name,
    site.address,
    [site.postalCode, site.municipalityName].filter(Boolean).join(' '),
    `(${site.province})`,
  ]
    .filter((p) => p && p.trim() !== '')
    .join(', ');
  return bookingCalendar({
    uid: eventUid(`visita-${visit.id}`, opts.env),
    method: 'PUBLISH',
    // A downloaded file: a newer download of a moved visit replaces the older one in the calendar.
    sequence: bookingSequence(new Date(visit.createdAt), opts.stamp),
    title: `Visita al plesso ${site.name} (${visit.siteCode})`,
    description: `Visita di rilevazione pianificata sul Portale Scuole. Rilevatore: ${visit.detector.firstName} ${visit.detector.lastName}.`,
    startsAt: new Date(visit.scheduledAt),
    endsAt: new Date(visit.endsAt),
    location,
    url: `${opts.env.publicWebUrl}/portale/istituti/plessi/${visit.schoolSiteId}/visite`,
    stamp: opts.stamp,
  });
}
