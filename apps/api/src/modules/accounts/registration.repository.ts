import { eq, sql } from 'drizzle-orm';
import { roles, teacherProfiles, userRoles, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

export type NewUser = Pick<
  typeof users.$inferInsert,
  'email' | 'passwordHash' | 'firstName' | 'lastName' | 'phone' | 'taxCode'
>;
export type NewTeacherProfile = Pick<
  typeof teacherProfiles.$inferInsert,
  'userId' | 'kind' | 'schoolSiteId' | 'subjects'
>;

/** The user of an address, whatever its case (`email` lower case). */
export async function findUserByEmail(db: DbOrTx, email: string) {
  const [user] = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  return user;
}

/** Creates a user; returns what the welcome messages need. */
export async function insertUser(db: DbOrTx, user: NewUser, now: Date) {
  const [row] = await db
    .insert(users)
    .values({ ...user, createdAt: now, updatedAt: now })
    .returning({ id: users.id, email: users.email, firstName: users.firstName });
  return row!;
}

/** Gives the user the role named `roleName` (nothing when no such role is seeded). */
export async function assignRoleByName(db: DbOrTx, userId: number, roleName: string): Promise<void> {
  const [role] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, roleName));
  if (role) await db.insert(userRoles).values({ userId, roleId: role.id });
}

/** Creates the teacher profile (review state: in attesa); returns its id. */
export async function insertTeacherProfile(
  db: DbOrTx,
  profile: NewTeacherProfile,
  now: Date,
): Promise<number> {
  const [row] = await db
    .insert(teacherProfiles)
    .values({ ...profile, createdAt: now, updatedAt: now })
    .returning({ id: teacherProfiles.id });
  return row!.id;
}
