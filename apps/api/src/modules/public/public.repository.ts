import { and, asc, count, desc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Figures, PublicSurvey } from '@portale/shared/public';
import { institutes, publicDocuments, schoolSites, surveys, tallies } from '../../db/schema/index.ts';
import { registeredTeachers } from '../dashboard/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import { enrolledInstitute } from '../registry/index.ts';

/** The programme's key figures: enrolled institutes, participating plessi, registered teachers and educators. */
export async function countFigures(db: DbOrTx): Promise<Omit<Figures, 'updatedAt'>> {
  const [enrolled] = await db.select({ n: count() }).from(institutes).where(enrolledInstitute);
  const [sites] = await db
    .select({ n: count() })
    .from(schoolSites)
    .where(eq(schoolSites.participating, true));
  // The same count as the staff dashboard's (registeredTeachers): the tallies the registrations keep.
  const byReviewState = await db
    .select({ key: tallies.key, n: sql<number>`${tallies.n}::int` })
    .from(tallies)
    .where(eq(tallies.name, 'teacher_review_state'));
  const teachers = registeredTeachers(Object.fromEntries(byReviewState.map((r) => [r.key, Number(r.n)])));
  return {
    institutesEnrolled: enrolled?.n ?? 0,
    participatingSites: sites?.n ?? 0,
    registeredTeachers: teachers,
  };
}

/** The published documents (without their content), in display order. */
export async function listPublishedDocuments(db: DbOrTx) {
  const rows = await db
    .select({
      id: publicDocuments.id,
      category: publicDocuments.category,
      title: publicDocuments.title,
      description: publicDocuments.description,
      fileName: publicDocuments.fileName,
      sizeBytes: publicDocuments.sizeBytes,
      publishedAt: publicDocuments.publishedAt,
    })
    .from(publicDocuments)
    .where(isNotNull(publicDocuments.publishedAt))
    .orderBy(asc(publicDocuments.sortOrder), asc(publicDocuments.title));
  return rows.map((r) => ({ ...r, publishedAt: r.publishedAt!.toISOString() }));
}

/** The file of a published document; `undefined` when unknown or not published. */
export async function findPublishedDocumentFile(db: DbOrTx, documentId: number) {
  const [doc] = await db
    // `content` is null for files in the file store (decision 030): only older rows carry their bytes.
    .select({
      fileName: publicDocuments.fileName,
      contentType: publicDocuments.contentType,
      sizeBytes: publicDocuments.sizeBytes,
      fileKey: publicDocuments.fileKey,
      content: publicDocuments.content,
    })
    .from(publicDocuments)
    .where(and(eq(publicDocuments.id, documentId), isNotNull(publicDocuments.publishedAt)));
  return doc;
}

/** The survey shown on the public site (never a draft): the open one, else the latest closed. */
export async function findCurrentSurvey(db: DbOrTx): Promise<PublicSurvey | undefined> {
  const [survey] = await db
    .select({
      id: surveys.id,
      title: surveys.title,
      purpose: surveys.purpose,
      audience: surveys.audience,
      state: surveys.state,
      opensOn: surveys.opensOn,
      closesOn: surveys.closesOn,
    })
    .from(surveys)
    .where(ne(surveys.state, 'bozza'))
    .orderBy(desc(sql`${surveys.state} = 'aperta'`), desc(surveys.opensOn))
    .limit(1);
  return survey;
}

/** Which of `slugs` are already stored as documents. */
export async function existingDocumentSlugs(db: DbOrTx, slugs: string[]): Promise<Set<string>> {
  const rows = await db
    .select({ slug: publicDocuments.slug })
    .from(publicDocuments)
    .where(inArray(publicDocuments.slug, slugs));
  return new Set(rows.map((r) => r.slug));
}

/** Stores a document unless its slug exists. */
export async function insertDocumentOnce(
  db: DbOrTx,
  doc: typeof publicDocuments.$inferInsert,
): Promise<void> {
  await db.insert(publicDocuments).values(doc).onConflictDoNothing();
}

/** Stores a survey unless its slug exists. */
export async function insertSurveyOnce(db: DbOrTx, survey: typeof surveys.$inferInsert): Promise<void> {
  await db.insert(surveys).values(survey).onConflictDoNothing();
}
