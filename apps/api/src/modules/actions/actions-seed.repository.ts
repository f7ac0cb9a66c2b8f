import { and, asc, eq, isNotNull, like, ne, sql } from 'drizzle-orm';
import { institutes, schoolSites, teacherProfiles, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

/** Look-ups of the demo actions seed (`actions-seed.ts`). */
export async function userIdByEmail(db: DbOrTx, email: string): Promise<number | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row?.id;
}

export async function instituteOfPrincipal(db: DbOrTx, userId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ id: institutes.id })
    .from(institutes)
    .where(eq(institutes.principalUserId, userId))
    .orderBy(asc(institutes.id))
    .limit(1);
  return row?.id;
}

export async function sitesOfInstitute(db: DbOrTx, instituteId: number, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: schoolSites.id })
    .from(schoolSites)
    .where(eq(schoolSites.instituteId, instituteId))
    .orderBy(asc(schoolSites.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Institutes with a principal (the demo ones), other than `except`, in a fixed order. */
export async function demoInstitutes(
  db: DbOrTx,
  except: number | undefined,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .select({ id: institutes.id })
    .from(institutes)
    .where(
      and(
        isNotNull(institutes.principalUserId),
        except === undefined ? undefined : ne(institutes.id, except),
      ),
    )
    .orderBy(sql`md5(${institutes.ministryCode})`)
    .limit(limit);
  return rows.map((r) => r.id);
}

/** The demo teachers (`insegnante.demo-NN@demo.test`) with a teacher profile. */
export async function demoTeachers(db: DbOrTx, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(teacherProfiles, eq(teacherProfiles.userId, users.id))
    .where(like(users.email, 'insegnante.demo-%@demo.test'))
    .orderBy(asc(users.email))
    .limit(limit);
  return rows.map((r) => r.id);
}
