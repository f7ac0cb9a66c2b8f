// The field-work tests' common ground: a second detector beside the demo one, a participating plesso
// of the demo institute assigned to a detector, the demo teacher placed there, visits planned
// yesterday, and one logged-in client per demo account.
import { eq } from 'drizzle-orm';
import {
  institutes,
  roles,
  schoolSites,
  teacherProfiles,
  userRoles,
  users,
  visits,
} from '../src/db/schema/index.ts';
import type { TestApp } from './build-test-app.ts';
import { ApiClient, nextIp } from './http-client.ts';

export const DEMO_DETECTOR = 'rilevatore@demo.test';
export const OTHER_DETECTOR = 'altro.rilevatore@demo.test';

export async function userIdOf(t: TestApp, email: string): Promise<number> {
  const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row!.id;
}

/** A second detector with the demo detector's password (its own phone); returns both ids. */
export async function addSecondDetector(t: TestApp, phone: string) {
  const db = t.database.db;
  const [demo] = await db.select().from(users).where(eq(users.email, DEMO_DETECTOR));
  const [created] = await db
    .insert(users)
    .values({
      email: OTHER_DETECTOR,
      firstName: 'Aldo',
      lastName: 'Altro',
      passwordHash: demo!.passwordHash,
      phone,
      emailVerifiedAt: demo!.emailVerifiedAt,
      phoneVerifiedAt: demo!.phoneVerifiedAt,
    })
    .returning({ id: users.id });
  const [role] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'detector'));
  await db.insert(userRoles).values({ userId: created!.id, roleId: role!.id });
  return { detectorId: demo!.id, otherId: created!.id };
}

/** A participating primary plesso of the demo institute (RMIC8AB00X) in Rome, assigned to `detectorUserId`. */
export async function addDetectorSite(
  t: TestApp,
  site: { ministryCode: string; name: string; detectorUserId: number; address?: string },
): Promise<number> {
  const db = t.database.db;
  const [institute] = await db
    .select({ id: institutes.id })
    .from(institutes)
    .where(eq(institutes.ministryCode, 'RMIC8AB00X'));
  const [row] = await db
    .insert(schoolSites)
    .values({
      ministryCode: site.ministryCode,
      instituteId: institute!.id,
      name: site.name,
      schoolLevel: 'primaria',
      typeLabel: 'Scuola primaria',
      ...(site.address ? { address: site.address, postalCode: '00100' } : {}),
      municipalityCode: 'H501',
      municipalityName: 'Roma',
      province: 'RM',
      region: 'Lazio',
      participating: true,
      detectorUserId: site.detectorUserId,
    })
    .returning({ id: schoolSites.id });
  return row!.id;
}

/** The demo teacher's profile at `siteId` (created if missing); returns the teacher's user id. */
export async function placeDemoTeacher(t: TestApp, siteId: number): Promise<number> {
  const db = t.database.db;
  const teacherUserId = await userIdOf(t, 'insegnante@demo.test');
  await db
    .insert(teacherProfiles)
    .values({ userId: teacherUserId, kind: 'insegnante', schoolSiteId: siteId, subjects: ['Matematica'] })
    .onConflictDoNothing();
  await db
    .update(teacherProfiles)
    .set({ schoolSiteId: siteId })
    .where(eq(teacherProfiles.userId, teacherUserId));
  return teacherUserId;
}

/** A visit at `siteId` planned yesterday (reportable under the "from its day" rule), in `state`. */
export async function plannedVisit(
  t: TestApp,
  siteId: number,
  detectorUserId: number,
  state: 'pianificata' | 'annullata' = 'pianificata',
): Promise<number> {
  const now = t.app.clock.now();
  const [row] = await t.database.db
    .insert(visits)
    .values({
      schoolSiteId: siteId,
      detectorUserId,
      scheduledAt: new Date(now.getTime() - 24 * 3600_000),
      state,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: visits.id });
  return row!.id;
}

/** One logged-in client per e-mail (each from its own address, so the login throttle never meets). */
export async function loggedInClients(
  t: TestApp,
  emails: readonly string[],
): Promise<Map<string, ApiClient>> {
  const clients = new Map<string, ApiClient>();
  for (const email of emails) {
    const client = new ApiClient(t, nextIp());
    await client.login(email);
    clients.set(email, client);
  }
  return clients;
}
