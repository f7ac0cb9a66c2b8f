import { asc, count, desc, eq, or, sql } from 'drizzle-orm';
import type { SchoolHome } from '@portale/shared/adhesions';
import { institutes, schoolSites, teacherProfiles, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

/** The institute a principal or first contact acts for (the principal's first, then the first contact's). */

// --- The school's home on /portale ---------------------------------------------------------------

const TEACHERS_SHOWN = 10;

/** The institute's plessi (participating first) with their registered teachers, and the first teachers by name. */
export async function findSchoolPeople(
  db: DbOrTx,
  instituteId: number,
): Promise<Pick<SchoolHome, 'schoolSites' | 'teachers'>> {
  const counts = await db
    .select({ siteId: teacherProfiles.schoolSiteId, n: count() })
    .from(teacherProfiles)
    .innerJoin(schoolSites, eq(schoolSites.id, teacherProfiles.schoolSiteId))
    .where(eq(schoolSites.instituteId, instituteId))
    .groupBy(teacherProfiles.schoolSiteId);
  const countOf = new Map(counts.map((c) => [Number(c.siteId), Number(c.n)]));
  const sites = await db
    .select({
      id: schoolSites.id,
      ministryCode: schoolSites.ministryCode,
      name: schoolSites.name,
      schoolLevel: schoolSites.schoolLevel,
      municipalityName: schoolSites.municipalityName,
      province: schoolSites.province,
      participating: schoolSites.participating,
    })
    .from(schoolSites)
    .where(eq(schoolSites.instituteId, instituteId))
    .orderBy(desc(schoolSites.participating), asc(schoolSites.name), asc(schoolSites.id));
  const teacherWhere = eq(schoolSites.instituteId, instituteId);
  const [items, [total]] = await Promise.all([
    db
      .select({
        id: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        kind: teacherProfiles.kind,
        reviewState: teacherProfiles.reviewState,
        schoolSiteName: schoolSites.name,
      })
      .from(teacherProfiles)
      .innerJoin(users, eq(users.id, teacherProfiles.userId))
      .innerJoin(schoolSites, eq(schoolSites.id, teacherProfiles.schoolSiteId))
      .where(teacherWhere)
      .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
      .limit(TEACHERS_SHOWN),
    db
      .select({ n: count() })
      .from(teacherProfiles)
      .innerJoin(schoolSites, eq(schoolSites.id, teacherProfiles.schoolSiteId))
      .where(teacherWhere),
  ]);
  return {
    schoolSites: sites.map((s) => ({ ...s, teacherCount: countOf.get(s.id) ?? 0 })),
    teachers: { total: Number(total?.n ?? 0), items },
  };
}

/** Every plesso of an institute with whether it participates (the correction form, issue 35 item 2). */
export async function instituteSchoolSites(db: DbOrTx, instituteId: number) {
  return db
    .select({
      id: schoolSites.id,
      ministryCode: schoolSites.ministryCode,
      name: schoolSites.name,
      municipalityName: schoolSites.municipalityName,
      participating: schoolSites.participating,
    })
    .from(schoolSites)
    .where(eq(schoolSites.instituteId, instituteId))
    .orderBy(asc(schoolSites.ministryCode))
    .limit(1000);
}

/** Sets which plessi of the institute participate: exactly `ids` (all of the institute), the others not. */
export async function setParticipatingSites(
  db: DbOrTx,
  instituteId: number,
  ids: readonly number[],
  now: Date,
): Promise<void> {
  await db
    .update(schoolSites)
    .set({
      participating: sql`${schoolSites.id} in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
      updatedAt: now,
    })
    .where(eq(schoolSites.instituteId, instituteId));
}

/** Every institute a person holds as principal or first contact (the chooser of the adhesion page and of /portale). */
export async function institutesOfPerson(db: DbOrTx, userId: number) {
  const rows = await db
    .select({
      id: institutes.id,
      name: institutes.name,
      ministryCode: institutes.ministryCode,
      adhesionState: institutes.adhesionState,
      principal: institutes.principalUserId,
    })
    .from(institutes)
    .where(or(eq(institutes.principalUserId, userId), eq(institutes.firstContactUserId, userId)))
    .orderBy(asc(institutes.name), asc(institutes.id))
    .limit(50);
  return rows.map(({ principal, ...r }) => ({
    ...r,
    viewerRole: principal === userId ? ('principal' as const) : ('first-contact' as const),
  }));
}
