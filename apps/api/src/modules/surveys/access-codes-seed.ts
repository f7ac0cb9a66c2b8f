import { DEMO_ACCESS_CODE, DEMO_SURVEY_SLUGS } from '@portale/shared/surveys';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { endOfRomeDay, generateCode } from './access-code-values.ts';
import * as repo from './access-codes.repository.ts';

/** The demo teacher who makes codes for their classes (seed.ts's demo account). */
export const DEMO_CODES_TEACHER = 'insegnante@demo.test';
/** How many times the demo code opens the open survey. */
export const DEMO_ACCESS_CODE_USES = 500;
const DEMO_CLASSES = [
  { classLabel: '3ª A', maxUses: 25 },
  { classLabel: '3ª B', maxUses: 22 },
  { classLabel: '5ª A', maxUses: 1 },
];

/**
 * Demo access codes (issue 12), idempotent: `PROVA01` for the open demo survey (500 uses, valid until
 * the survey closes) on a demo plesso, and codes for three classes of the demo teacher, whose profile
 * gets that plesso if it has none. Nothing happens without the open demo survey or any plesso.
 * Returns the demo code when it is there.
 */
export async function seedDemoAccessCodes(db: Db, now: Date = new Date()): Promise<string | undefined> {
  const survey = await repo.surveyBySlug(db, DEMO_SURVEY_SLUGS.open);
  if (!survey || survey.state !== 'aperta') return undefined;
  const fallbackSite = await repo.demoSchoolSite(db);
  if (fallbackSite === undefined) return undefined;
  const expiresAt = endOfRomeDay(survey.closesOn);
  await withTransaction(db, async (tx) => {
    const teacher = await repo.ensureDemoTeacherSite(tx, DEMO_CODES_TEACHER, fallbackSite, now);
    const siteId = teacher?.siteId ?? fallbackSite;
    if (!(await repo.existingCodes(tx, [DEMO_ACCESS_CODE])).has(DEMO_ACCESS_CODE)) {
      await repo.insertCodeIfFree(tx, {
        code: DEMO_ACCESS_CODE,
        surveyId: survey.id,
        schoolSiteId: siteId,
        classLabel: null,
        ownerUserId: null,
        createdByUserId: null,
        maxUses: DEMO_ACCESS_CODE_USES,
        expiresAt,
        createdAt: now,
      });
    }
    if (teacher && (await repo.countOwnedCodes(tx, teacher.userId, survey.id)) === 0) {
      for (const { classLabel, maxUses } of DEMO_CLASSES) {
        let id: number | undefined;
        while (id === undefined) {
          id = await repo.insertCodeIfFree(tx, {
            code: generateCode(),
            surveyId: survey.id,
            schoolSiteId: teacher.siteId,
            classLabel,
            ownerUserId: teacher.userId,
            createdByUserId: teacher.userId,
            maxUses,
            expiresAt,
            createdAt: now,
          });
        }
      }
    }
  });
  return DEMO_ACCESS_CODE;
}
