import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { AccountProfile, MissingItem } from '@portale/shared/accounts';
import { reviews, schoolSites, teacherProfiles, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

/** The user's own profile with what `/auth/completa-registrazione` still needs. */
export async function findAccountProfile(db: DbOrTx, userId: number): Promise<AccountProfile | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return undefined;
  const [profile] = await db
    .select({ profile: teacherProfiles, site: schoolSites })
    .from(teacherProfiles)
    .leftJoin(schoolSites, eq(schoolSites.id, teacherProfiles.schoolSiteId))
    .where(eq(teacherProfiles.userId, userId));
  const missing: MissingItem[] = [];
  if (!user.phone) missing.push('phone');
  if (!user.phoneVerifiedAt) missing.push('phoneVerification');
  if (!user.emailVerifiedAt) missing.push('emailVerification');
  if (profile && profile.profile.kind !== 'altro' && !user.taxCode) missing.push('taxCode');
  if (profile && profile.profile.kind !== 'altro' && !profile.site) missing.push('schoolSite');
  // Sent back for corrections: the staff's note of that decision is shown where the teacher lands.
  const [sentBack] =
    profile?.profile.reviewState === 'da_correggere'
      ? await db
          .select({ note: reviews.note, fields: reviews.flaggedFields })
          .from(reviews)
          .where(
            and(
              eq(reviews.type, 'insegnanti'),
              eq(reviews.subjectId, profile.profile.id),
              eq(reviews.state, 'da_correggere'),
              isNotNull(reviews.decidedAt),
            ),
          )
          .orderBy(desc(reviews.decidedAt))
          .limit(1)
      : [];
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    emailVerified: user.emailVerifiedAt !== null,
    phone: user.phone,
    phoneVerified: user.phoneVerifiedAt !== null,
    taxCode: user.taxCode,
    teacherProfile: profile
      ? {
          kind: profile.profile.kind,
          schoolSite: profile.site
            ? {
                id: profile.site.id,
                name: profile.site.name,
                ministryCode: profile.site.ministryCode,
                municipalityName: profile.site.municipalityName,
              }
            : null,
          subjects: profile.profile.subjects,
          reviewState: profile.profile.reviewState,
          reviewNote: sentBack?.note ?? null,
          reviewFields: sentBack?.fields ?? [],
        }
      : null,
    missing,
  };
}

/** Completes the profile: tax code on the user, plesso and subjects on the teacher profile (given fields only). */
export async function updateAccountProfile(
  db: DbOrTx,
  userId: number,
  changes: {
    taxCode?: string | undefined;
    schoolSiteId?: number | undefined;
    subjects?: string[] | undefined;
  },
  now: Date,
): Promise<void> {
  const { taxCode, schoolSiteId, subjects } = changes;
  if (taxCode) await db.update(users).set({ taxCode, updatedAt: now }).where(eq(users.id, userId));
  if (schoolSiteId || subjects) {
    await db
      .update(teacherProfiles)
      .set({ ...(schoolSiteId ? { schoolSiteId } : {}), ...(subjects ? { subjects } : {}), updatedAt: now })
      .where(eq(teacherProfiles.userId, userId));
  }
}

/**
 * A registration the staff sent back (`da_correggere`) goes back to `in_attesa` when its owner updates
 * the profile; returns the teacher profile's id to queue again, `undefined` when nothing was sent back.
 */
export async function reopenReviewAfterChanges(
  db: DbOrTx,
  userId: number,
  now: Date,
): Promise<number | undefined> {
  const [row] = await db
    .update(teacherProfiles)
    .set({ reviewState: 'in_attesa', updatedAt: now })
    .where(and(eq(teacherProfiles.userId, userId), eq(teacherProfiles.reviewState, 'da_correggere')))
    .returning({ id: teacherProfiles.id });
  return row?.id;
}

/**
 * An approved teacher who moves to another plesso goes back to review for it (decision 029): the
 * approval was for the old plesso. Called before the move; returns the teacher profile's id to queue,
 * `undefined` when the profile was not approved or the plesso does not change.
 */
export async function reopenReviewAfterMove(
  db: DbOrTx,
  userId: number,
  schoolSiteId: number,
  now: Date,
): Promise<number | undefined> {
  const [row] = await db
    .update(teacherProfiles)
    .set({ reviewState: 'in_attesa', updatedAt: now })
    .where(
      and(
        eq(teacherProfiles.userId, userId),
        eq(teacherProfiles.reviewState, 'approvata'),
        sql`${teacherProfiles.schoolSiteId} is distinct from ${schoolSiteId}`,
      ),
    )
    .returning({ id: teacherProfiles.id });
  return row?.id;
}
