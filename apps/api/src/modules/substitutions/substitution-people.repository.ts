// The people of a substitution: the candidates a principal may name, a plesso's teachers, accounts.
import { and, asc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { SubstitutionCandidates } from '@portale/shared/substitutions';
import { institutes, schoolSites, teacherProfiles, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

/** The institutes a user leads (principal or first contact). */
export const ownedBy = (userId: number) =>
  or(eq(institutes.principalUserId, userId), eq(institutes.firstContactUserId, userId));

/** A rejected teacher is no longer one of the plesso's teachers (decision 029). */
const notRejected = ne(teacherProfiles.reviewState, 'respinta');

/** The plessi of the institutes the user leads (principal or first contact) and their teachers (not rejected). */
export async function candidatesOf(db: DbOrTx, userId: number): Promise<SubstitutionCandidates> {
  const sites = await db
    .select({
      id: schoolSites.id,
      name: schoolSites.name,
      ministryCode: schoolSites.ministryCode,
      instituteName: institutes.name,
    })
    .from(schoolSites)
    .innerJoin(institutes, eq(institutes.id, schoolSites.instituteId))
    .where(ownedBy(userId))
    .orderBy(asc(institutes.name), asc(schoolSites.name), asc(schoolSites.id))
    .limit(200);
  if (sites.length === 0) return { sites: [] };
  const teachers = await db
    .select({
      siteId: teacherProfiles.schoolSiteId,
      userId: users.id,
      lastName: users.lastName,
      firstName: users.firstName,
      email: users.email,
      kind: teacherProfiles.kind,
    })
    .from(teacherProfiles)
    .innerJoin(users, eq(users.id, teacherProfiles.userId))
    .where(
      and(
        inArray(
          teacherProfiles.schoolSiteId,
          sites.map((s) => s.id),
        ),
        notRejected,
      ),
    )
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
  return {
    sites: sites.map((s) => ({
      ...s,
      teachers: teachers
        .filter((t) => t.siteId === s.id)
        .map((t) => ({
          userId: t.userId,
          name: `${t.lastName} ${t.firstName}`,
          email: t.email,
          kind: t.kind,
        })),
    })),
  };
}

// --- Requests ---

export interface PersonRow {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
}
export const personFields = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
};

/** The teacher's profile when it places them in the plesso. */
export async function teacherOfSite(
  db: DbOrTx,
  userId: number,
  siteId: number,
): Promise<(PersonRow & { kind: string }) | undefined> {
  const [row] = await db
    .select({ ...personFields, kind: teacherProfiles.kind })
    .from(teacherProfiles)
    .innerJoin(users, eq(users.id, teacherProfiles.userId))
    .where(and(eq(teacherProfiles.userId, userId), eq(teacherProfiles.schoolSiteId, siteId), notRejected));
  return row;
}

/** A teacher placed in any plesso of the plesso's institute. */
export async function teacherOfSameInstitute(
  db: DbOrTx,
  userId: number,
  siteId: number,
): Promise<PersonRow | undefined> {
  const site = alias(schoolSites, 'request_site');
  const [row] = await db
    .select(personFields)
    .from(teacherProfiles)
    .innerJoin(users, eq(users.id, teacherProfiles.userId))
    .innerJoin(schoolSites, eq(schoolSites.id, teacherProfiles.schoolSiteId))
    .innerJoin(site, eq(site.instituteId, schoolSites.instituteId))
    .where(and(eq(teacherProfiles.userId, userId), eq(site.id, siteId), notRejected));
  return row;
}

export async function findUserByEmail(db: DbOrTx, email: string): Promise<PersonRow | undefined> {
  const [row] = await db
    .select(personFields)
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return row;
}

export async function findUser(db: DbOrTx, id: number): Promise<PersonRow | undefined> {
  const [row] = await db.select(personFields).from(users).where(eq(users.id, id));
  return row;
}
