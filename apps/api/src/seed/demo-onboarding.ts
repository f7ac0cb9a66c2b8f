import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AdhesionState } from '@portale/shared/registry';
import type { ReviewState } from '@portale/shared/reviews';
import { hashPassword } from '../lib/passwords.ts';
import { seedDemoAdhesion } from '../modules/adhesions/adhesion-signing.service.ts';
import { transitionAdhesion } from '../modules/adhesions/adhesion-state.repository.ts';
import { submitForReview } from '../modules/review-queue/review-submission.repository.ts';
import type { Db } from '../db/client.ts';
import {
  institutes,
  reviews,
  roles,
  schoolSites,
  teacherProfiles,
  userRoles,
  users,
} from '../db/schema/index.ts';
import { withTransaction } from '../db/transaction.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** How many demo institutes follow each path of the adhesion state machine (product §5). */
const PATHS: { count: number; path: AdhesionState[]; note?: string }[] = [
  { count: 12, path: ['iscritto'] },
  { count: 6, path: ['iscritto', 'adesione_firmata'] },
  { count: 14, path: ['iscritto', 'adesione_firmata', 'attivo'] },
  {
    count: 4,
    path: ['iscritto', 'adesione_firmata', 'da_correggere'],
    note: 'Nel documento manca il plesso di via Roma: aggiungetelo tra i plessi partecipanti e firmate di nuovo.',
  },
  {
    count: 2,
    path: ['iscritto', 'adesione_firmata', 'respinto'],
    note: "L'istituto non rientra nel campione dell'indagine di quest'anno.",
  },
  {
    count: 2,
    path: ['iscritto', 'adesione_firmata', 'attivo', 'ritirato'],
    note: 'Il collegio dei docenti ha deciso di non proseguire.',
  },
];
const FIRST_NAMES = [
  'Giulia',
  'Marco',
  'Francesca',
  'Luca',
  'Chiara',
  'Andrea',
  'Elena',
  'Paolo',
  'Sara',
  'Giorgio',
];
const LAST_NAMES = [
  'Rossi',
  'Bianchi',
  'Esposito',
  'Ricci',
  'Marino',
  'Greco',
  'Bruno',
  'Gallo',
  'Conti',
  'De Luca',
  'Costa',
  'Fontana',
];
const DECISIONS: Partial<Record<AdhesionState, ReviewState>> = {
  attivo: 'approvata',
  da_correggere: 'da_correggere',
  respinto: 'respinta',
};

async function roleId(db: Db, name: string): Promise<number> {
  const [row] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, name));
  return row!.id;
}

/**
 * Demo data of the onboarding issue, on a fresh start: 40 institutes walked along every path of the
 * adhesion state machine over the last ten weeks (dated transitions, signatures, review decisions),
 * each with a demo principal, plus teacher registrations waiting in the `insegnanti` queue. Skipped
 * when already there, so every start after the first costs one query.
 */
export async function seedDemoOnboarding(db: Db, now: Date = new Date()): Promise<void> {
  const [marker] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, 'dirigente.demo-01@demo.test'));
  if (marker) return;
  const candidates = await db
    .select({ id: institutes.id, ministryCode: institutes.ministryCode })
    .from(institutes)
    .where(
      and(
        eq(institutes.isStateSchool, true),
        eq(institutes.adhesionState, 'nessuna'),
        sql`${institutes.principalUserId} is null`,
      ),
    )
    // A fixed but scattered choice across regions and provinces.
    .orderBy(sql`md5(${institutes.ministryCode})`)
    .limit(PATHS.reduce((n, p) => n + p.count, 0));
  if (candidates.length === 0) return;
  const passwordHash = await hashPassword(`${now.getTime()}-${Math.random()}-demo-principal`);
  const principalRole = await roleId(db, 'school.principal');
  const teacherRole = await roleId(db, 'teacher');
  const [reviewer] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'sylla@demo.test'));
  const plan = PATHS.flatMap((p) => Array.from({ length: p.count }, () => p));
  const active: number[] = [];

  for (const [i, institute] of candidates.entries()) {
    const { path, note } = plan[i]!;
    const n = String(i + 1).padStart(2, '0');
    await withTransaction(db, async (tx) => {
      const [principal] = await tx
        .insert(users)
        .values({
          email: `dirigente.demo-${n}@demo.test`,
          passwordHash,
          firstName: FIRST_NAMES[i % FIRST_NAMES.length]!,
          lastName: LAST_NAMES[i % LAST_NAMES.length]!,
          phone: '+393331234567',
          emailVerifiedAt: now,
          phoneVerifiedAt: now,
        })
        .returning({ id: users.id });
      await tx.insert(userRoles).values({ userId: principal!.id, roleId: principalRole });
      await tx
        .update(institutes)
        .set({ principalUserId: principal!.id })
        .where(eq(institutes.id, institute.id));
      const sites = await tx
        .select({ id: schoolSites.id })
        .from(schoolSites)
        .where(eq(schoolSites.instituteId, institute.id))
        .orderBy(asc(schoolSites.id))
        .limit(2);
      if (sites.length)
        await tx
          .update(schoolSites)
          .set({ participating: true })
          .where(
            inArray(
              schoolSites.id,
              sites.map((s) => s.id),
            ),
          );
      // Ten weeks ago for the first, the last ones a few days ago; each step a few days after the previous.
      let at = new Date(now.getTime() - (70 - i * 1.5) * DAY);
      for (const [step, to] of path.entries()) {
        if (step > 0)
          at = new Date(Math.min(at.getTime() + (2 + ((i + step) % 6)) * DAY, now.getTime() - HOUR));
        const decision = DECISIONS[to];
        await transitionAdhesion(tx, {
          instituteId: institute.id,
          to,
          actorUserId: decision ? (reviewer?.id ?? null) : null,
          note: to === 'attivo' ? null : (note ?? null),
          at,
        });
        if (to === 'adesione_firmata')
          await seedDemoAdhesion(tx as unknown as Db, institute.id, principal!.id, at);
        if (decision) {
          await tx
            .update(reviews)
            .set({
              state: decision,
              decidedAt: at,
              decidedByUserId: reviewer?.id ?? null,
              note: decision === 'approvata' ? null : (note ?? null),
            })
            .where(
              and(
                eq(reviews.type, 'adesioni'),
                eq(reviews.subjectId, institute.id),
                eq(reviews.state, 'in_attesa'),
              ),
            );
        }
      }
    });
    if (path.at(-1) === 'attivo') active.push(institute.id);
  }

  // Teachers and educators of the active institutes: some approved, most waiting for review.
  const sites = await db
    .select({ id: schoolSites.id })
    .from(schoolSites)
    .where(and(inArray(schoolSites.instituteId, active), eq(schoolSites.participating, true)))
    .orderBy(asc(schoolSites.id))
    .limit(8);
  for (const [i, site] of sites.entries()) {
    const approved = i < 3;
    const at = new Date(now.getTime() - (20 - i * 2) * DAY);
    await withTransaction(db, async (tx) => {
      const [teacher] = await tx
        .insert(users)
        .values({
          email: `insegnante.demo-${String(i + 1).padStart(2, '0')}@demo.test`,
          passwordHash,
          firstName: FIRST_NAMES[(i + 3) % FIRST_NAMES.length]!,
          lastName: LAST_NAMES[(i + 5) % LAST_NAMES.length]!,
          phone: '+393331234567',
          emailVerifiedAt: at,
          phoneVerifiedAt: at,
          createdAt: at,
        })
        .returning({ id: users.id });
      await tx.insert(userRoles).values({ userId: teacher!.id, roleId: teacherRole });
      const [profile] = await tx
        .insert(teacherProfiles)
        .values({
          userId: teacher!.id,
          kind: i % 4 === 3 ? 'educatore' : 'insegnante',
          schoolSiteId: site.id,
          subjects: i % 2 ? ['Matematica', 'Scienze'] : ['Italiano', 'Storia'],
          reviewState: approved ? 'approvata' : 'in_attesa',
          createdAt: at,
        })
        .returning({ id: teacherProfiles.id });
      await submitForReview(tx, { type: 'insegnanti', subjectId: profile!.id, at });
      if (approved) {
        await tx
          .update(reviews)
          .set({
            state: 'approvata',
            decidedAt: new Date(at.getTime() + DAY),
            decidedByUserId: reviewer?.id ?? null,
          })
          .where(and(eq(reviews.type, 'insegnanti'), eq(reviews.subjectId, profile!.id)));
      }
    });
  }
}
