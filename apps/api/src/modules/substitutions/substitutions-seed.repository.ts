import { asc, eq, sql } from 'drizzle-orm';
import {
  institutes,
  roles,
  schoolSites,
  substitutions,
  teacherProfiles,
  userRoles,
  users,
} from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

/** Queries of the substitutions demo seed. */

export async function userIdByEmail(db: DbOrTx, email: string): Promise<number | undefined> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  return row?.id;
}

/** The demo first contact, their institute and their password hash (the demo password). */
export async function demoFirstContact(
  db: DbOrTx,
  email: string,
): Promise<{ userId: number; instituteId: number; passwordHash: string } | undefined> {
  const [row] = await db
    .select({ userId: users.id, instituteId: institutes.id, passwordHash: users.passwordHash })
    .from(users)
    .innerJoin(institutes, eq(institutes.firstContactUserId, users.id))
    .where(eq(users.email, email))
    .orderBy(asc(institutes.id))
    .limit(1);
  return row;
}

export async function firstSiteOfInstitute(db: DbOrTx, instituteId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ id: schoolSites.id })
    .from(schoolSites)
    .where(eq(schoolSites.instituteId, instituteId))
    .orderBy(asc(schoolSites.id))
    .limit(1);
  return row?.id;
}

/** A demo teacher: verified contacts, the teacher role and an approved profile (in the plesso or without one). */
export async function insertDemoTeacher(
  db: DbOrTx,
  t: {
    email: string;
    firstName: string;
    lastName: string;
    passwordHash: string;
    schoolSiteId: number | null;
    at: Date;
  },
): Promise<number> {
  const [user] = await db
    .insert(users)
    .values({
      email: t.email,
      firstName: t.firstName,
      lastName: t.lastName,
      passwordHash: t.passwordHash,
      phone: '+393331234567',
      emailVerifiedAt: t.at,
      phoneVerifiedAt: t.at,
      createdAt: t.at,
      updatedAt: t.at,
    })
    .returning({ id: users.id });
  const [role] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'teacher'));
  await db.insert(userRoles).values({ userId: user!.id, roleId: role!.id }).onConflictDoNothing();
  await db.insert(teacherProfiles).values({
    userId: user!.id,
    kind: 'insegnante',
    schoolSiteId: t.schoolSiteId,
    subjects: ['Italiano', 'Storia'],
    reviewState: 'approvata',
    createdAt: t.at,
    updatedAt: t.at,
  });
  return user!.id;
}

export async function insertDemoSubstitution(
  db: DbOrTx,
  row: Omit<typeof substitutions.$inferInsert, 'id'>,
): Promise<void> {
  await db.insert(substitutions).values(row);
}
