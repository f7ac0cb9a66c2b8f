import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can } from '@portale/shared/auth';
import {
  ACCESS_CODE_MAX_USES,
  ACCESS_CODE_MESSAGES,
  ACCESS_CODE_STATE_LABELS,
  accessCodeSheet,
  answerFieldKey,
  answersNotForGroup,
  createAccessCodes,
  exportAccessCodes,
  getAccessCodeOptions,
  getPublicAccessCode,
  isAccessCodeShape,
  includesGroup,
  listAccessCodes,
  questionsForGroup,
  revokeAccessCode,
  submitAccessCodeResponse,
  SURVEY_MESSAGES,
  validateAnswers,
  type AccessCodeSummary,
} from '@portale/shared/surveys';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite } from '../../lib/audit.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { FieldErrors } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { forEachBatch } from '../../lib/list.ts';
import { authOf } from '../../plugins/authorization.ts';
import { ACCESS_CODE_SHEET_TEMPLATE_KEY, SURVEYS_TEMPLATES } from './surveys.templates.ts';
import { findCurrent } from '../messages/index.ts';
import { lastValidInstant, renderAccessCodeSheet } from '../../lib/render/access-code-sheet.ts';
import { endOfRomeDay, generateCode, romeToday, startOfRomeDay } from './access-code-values.ts';
import * as repo from './access-codes.repository.ts';
import { findSurveyWithQuestions, toOpenSurvey } from './surveys.repository.ts';

/** The sheet's template before the stored ones are seeded. */
const SHEET_DEFAULT = SURVEYS_TEMPLATES.find((t) => t.key === ACCESS_CODE_SHEET_TEMPLATE_KEY)!;

/**
 * Per IP, on each public endpoint. A whole class behind one school address may open (and reload) the
 * questionnaire and send it within the same minute, so the limits leave room for that. Guessing stays
 * impractical: 62^7 ≈ 3.5·10^12 codes, so with 100.000 valid codes out there one address trying 300 a
 * minute needs about 80 days of non-stop tries for a single hit (which opens one anonymous form).
 */
export const ACCESS_CODE_RATE_LIMITS = {
  read: { max: 300, timeWindow: 60_000 },
  submit: { max: 100, timeWindow: 60_000 },
};

const CODE_ATTEMPTS = 20;

/** The one answer for any code that opens nothing (malformed, unknown, expired, revoked, used up). */
const codeNotFound = () => new HttpError(404, 'access_code_not_found', ACCESS_CODE_MESSAGES.notFound);

const EXPORT_COLUMNS: ExportColumn<AccessCodeSummary>[] = [
  { header: 'Codice', value: (r) => r.code },
  { header: 'Indagine', value: (r) => r.surveyTitle },
  { header: 'Plesso', value: (r) => r.schoolSiteName },
  { header: 'Classe', value: (r) => r.classLabel },
  { header: 'Utilizzi', value: (r) => r.uses },
  { header: 'Utilizzi massimi', value: (r) => r.maxUses },
  { header: 'Valido fino al', value: (r) => lastValidInstant(r.expiresAt), type: 'date' },
  { header: 'Stato', value: (r) => ACCESS_CODE_STATE_LABELS[r.state] },
  { header: 'Creato da', value: (r) => r.ownerName },
  { header: 'Creato il', value: (r) => new Date(r.createdAt) },
];

/** The caller's own collection: an `:own` grant passes, the list is then limited to their codes. */
function mine(request: FastifyRequest) {
  return Promise.resolve({ ownerUserIds: [authOf(request).user.id] });
}

/** Staff see every code; a teacher or educator only the codes they own. */
function ownerScope(request: FastifyRequest): number | undefined {
  const user = authOf(request).user;
  return can(user, 'read:access-code') ? undefined : user.id;
}

/** A code's owner (its teacher); unknown → 404. */
async function codeOf(request: FastifyRequest) {
  const { id } = request.params as { id: number };
  const [row] = await repo.codeOwners(request.server.db, [id]);
  return row && { ownerUserIds: [row.ownerUserId] };
}

/** The codes of a sheet: owned by the caller only when every one of them is theirs; any unknown → 404. */
async function sheetCodesOf(request: FastifyRequest) {
  const { ids } = request.query as { ids: number[] };
  const rows = await repo.codeOwners(request.server.db, ids);
  if (rows.length !== ids.length) return undefined;
  const owners = new Set(rows.map((r) => r.ownerUserId));
  return { ownerUserIds: owners.size === 1 ? [...owners] : [] };
}

/**
 * The plesso a code request is for: a teacher's own (their profile's plesso, whatever the body says
 * when it says nothing); the owners are the teachers approved for that plesso, so a teacher asking for
 * another plesso is a 403, and so is a teacher whose registration is not approved (decision 029: new,
 * sent back, rejected, or back in review after a change of plesso), with a message saying why.
 * A teacher without a plesso and an unknown plesso are left to the handler (a 422 on the field).
 */
async function requestedSiteOf(request: FastifyRequest) {
  const body = request.body as { schoolSiteId?: number };
  const user = authOf(request).user;
  const db = request.server.db;
  if (can(user, 'create:access-code')) {
    return body.schoolSiteId === undefined
      ? { ownerUserIds: [] }
      : { ownerUserIds: await repo.teachersOfSchoolSite(db, body.schoolSiteId) };
  }
  const profile = await repo.teacherProfileOf(db, user.id);
  const siteId = body.schoolSiteId ?? profile?.schoolSiteId ?? undefined;
  if (siteId === undefined) return { ownerUserIds: [user.id] };
  if (profile?.reviewState !== 'approvata') {
    const message =
      profile?.reviewState === 'respinta' ? ACCESS_CODE_MESSAGES.rejected : ACCESS_CODE_MESSAGES.notApproved;
    throw new HttpError(403, 'teacher_not_approved', message);
  }
  return { ownerUserIds: await repo.teachersOfSchoolSite(db, siteId) };
}

const italianDay = (day: string) => day.split('-').reverse().join('/');

/** Access codes (issue 12): a teacher's codes for their plesso's classes, the printed sheet, and `/{code}`. */
export async function accessCodeRoutes(app: FastifyInstance) {
  const perIp = (limit: { max: number; timeWindow: number }) => ({
    rateLimit: {
      ...limit,
      keyGenerator: (request: FastifyRequest) => `ip:${normalizeIP(request.ip)}`,
      errorResponseBuilder: (_req: unknown, ctx: { ttl: number }) =>
        new HttpError(429, 'rate_limited', ACCESS_CODE_MESSAGES.rateLimited, {
          'retry-after': String(Math.max(1, Math.ceil(ctx.ttl / 1000))),
        }),
    },
  });

  registerEndpoint(app, listAccessCodes, { resource: mine }, (request) =>
    repo.listCodes(app.db, request.query, ownerScope(request), app.clock.now()),
  );

  registerEndpoint(app, exportAccessCodes, { resource: mine }, async (request, reply) => {
    const { format, ...filters } = request.query;
    const now = app.clock.now();
    const owner = ownerScope(request);
    return sendExport(reply, {
      format,
      name: 'codici-di-accesso',
      sheetName: 'Codici di accesso',
      columns: EXPORT_COLUMNS,
      total: await repo.countCodes(app.db, filters, owner, now),
      today: now,
      produce: (write) =>
        forEachBatch(app.db, repo.codeListQuery(app.db, filters, owner, now), repo.toSummary, write),
    });
  });

  registerEndpoint(app, getAccessCodeOptions, { resource: mine }, async (request) => {
    const user = authOf(request).user;
    const isStaff = can(user, 'create:access-code');
    const profile = isStaff ? undefined : await repo.teacherProfileOf(app.db, user.id);
    const blockedReason =
      isStaff || profile?.reviewState === 'approvata'
        ? null
        : profile?.reviewState === 'respinta'
          ? ACCESS_CODE_MESSAGES.rejected
          : profile?.reviewState === 'da_correggere'
            ? ACCESS_CODE_MESSAGES.toCorrect
            : ACCESS_CODE_MESSAGES.notApproved;
    return {
      surveys: await repo.openSurveys(app.db),
      schoolSite: await repo.teacherSchoolSite(app.db, user.id),
      blockedReason,
      maxUses: isStaff ? ACCESS_CODE_MAX_USES : app.env.ACCESS_CODE_TEACHER_MAX_USES,
    };
  });

  registerEndpoint(app, createAccessCodes, { resource: requestedSiteOf }, async (request, reply) => {
    const input = request.body;
    const user = authOf(request).user;
    const now = app.clock.now();
    const errors: Record<string, string[]> = {};
    const siteId = input.schoolSiteId ?? (await repo.teacherSchoolSite(app.db, user.id))?.id;
    if (siteId === undefined)
      errors.schoolSiteId = [
        can(user, 'create:access-code') ? ACCESS_CODE_MESSAGES.schoolSite : ACCESS_CODE_MESSAGES.noSchoolSite,
      ];
    else if (!(await repo.schoolSiteExists(app.db, siteId)))
      errors.schoolSiteId = [ACCESS_CODE_MESSAGES.schoolSiteUnknown];
    const survey = await repo.findSurveyForCodes(app.db, input.surveyId);
    if (!survey || survey.state !== 'aperta')
      errors.surveyId = [survey ? ACCESS_CODE_MESSAGES.surveyNotOpen : ACCESS_CODE_MESSAGES.survey];
    else if (!includesGroup(survey.participants, 'codici'))
      errors.surveyId = [ACCESS_CODE_MESSAGES.surveyNotForCodes];
    if (input.expiresOn < romeToday(now)) errors.expiresOn = [ACCESS_CODE_MESSAGES.expiresInPast];
    else if (survey && input.expiresOn > survey.closesOn)
      errors.expiresOn = [ACCESS_CODE_MESSAGES.expiresAfterClose(italianDay(survey.closesOn))];
    // A teacher's code serves a class (decision 029); staff codes (the demo code) keep the contract's ceiling.
    const isTeacher = !can(user, 'create:access-code');
    const teacherMaxUses = app.env.ACCESS_CODE_TEACHER_MAX_USES;
    if (isTeacher && input.maxUses > teacherMaxUses)
      errors.maxUses = [ACCESS_CODE_MESSAGES.teacherMaxUses(teacherMaxUses)];
    if (Object.keys(errors).length > 0) throw new FieldErrors(errors);

    // A teacher's codes are theirs (a substitution moves them); staff make codes that belong to nobody.
    const ownerUserId = isTeacher ? user.id : null;
    const expiresAt = endOfRomeDay(input.expiresOn);
    const ids = await withTransaction(app.db, async (tx) => {
      if (isTeacher) {
        // The daily cap is read and raised under a per-teacher lock: two requests at once cannot both pass it.
        await repo.lockTeacherCodes(tx, user.id);
        const max = app.env.ACCESS_CODE_TEACHER_MAX_CODES_PER_DAY;
        if ((await repo.codesCreatedSince(tx, user.id, startOfRomeDay(now))) + input.count > max) {
          throw new HttpError(429, 'access_code_daily_limit', ACCESS_CODE_MESSAGES.teacherDailyCodes(max));
        }
      }
      const created: number[] = [];
      for (let n = 0; n < input.count; n++) {
        let id: number | undefined;
        for (let attempt = 0; id === undefined && attempt < CODE_ATTEMPTS; attempt++) {
          const code = generateCode();
          id = await repo.insertCodeIfFree(tx, {
            code,
            surveyId: input.surveyId,
            schoolSiteId: siteId!,
            classLabel: input.classLabel,
            ownerUserId,
            createdByUserId: user.id,
            maxUses: input.maxUses,
            expiresAt,
            createdAt: now,
          });
        }
        if (id === undefined) throw new Error('could not draw a free access code');
        created.push(id);
      }
      await auditWrite(tx, request, {
        action: 'access-code.created',
        entity: 'access-code',
        entityId: created[0]!,
        after: {
          ids: created,
          surveyId: input.surveyId,
          schoolSiteId: siteId,
          classLabel: input.classLabel,
          maxUses: input.maxUses,
          expiresOn: input.expiresOn,
        },
      });
      return created;
    });
    reply.header('cache-control', 'no-store');
    return { items: await repo.codeSummaries(app.db, ids, now) };
  });

  registerEndpoint(app, revokeAccessCode, { resource: codeOf }, async (request) => {
    const { id } = request.params;
    const now = app.clock.now();
    await withTransaction(app.db, async (tx) => {
      if (!(await repo.revokeCode(tx, id, now)))
        throw new HttpError(409, 'access_code_revoked', ACCESS_CODE_MESSAGES.alreadyRevoked);
      await auditWrite(tx, request, {
        action: 'access-code.revoked',
        entity: 'access-code',
        entityId: id,
        before: { revokedAt: null },
        after: { revokedAt: now.toISOString() },
      });
    });
    const [summary] = await repo.codeSummaries(app.db, [id], now);
    return summary!;
  });

  registerEndpoint(app, accessCodeSheet, { resource: sheetCodesOf }, async (request, reply) => {
    const now = app.clock.now();
    const codes = await repo.codeSummaries(app.db, request.query.ids, now);
    const template = (await findCurrent(app.db, ACCESS_CODE_SHEET_TEMPLATE_KEY)) ?? SHEET_DEFAULT;
    const pdf = await renderAccessCodeSheet(codes, {
      webUrl: app.env.publicWebUrl,
      createdAt: now,
      template,
    });
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="codici-di-accesso-${romeToday(now)}.pdf"`)
      .header('cache-control', 'private, no-store')
      .header('content-length', String(pdf.byteLength))
      .send(Buffer.from(pdf));
  });

  // ---- Public: /{code} ----

  /**
   * A look-up that opened nothing counts against the portal-wide ceiling of failed look-ups (valid
   * codes never do): past it, an address that keeps failing is refused before any look-up, while
   * schools typing valid codes go on (`app.ceilings.accessCodes`).
   */
  const failedLookup = async (request: FastifyRequest) => {
    await app.ceilings.accessCodes.failed(request);
    return codeNotFound();
  };

  registerEndpoint(
    app,
    getPublicAccessCode,
    { config: perIp(ACCESS_CODE_RATE_LIMITS.read) },
    async (request, reply) => {
      const { code } = request.params;
      reply.header('cache-control', 'no-store');
      await app.ceilings.accessCodes.beforeLookup(request);
      if (!isAccessCodeShape(code)) throw await failedLookup(request);
      const found = await repo.findUsableCode(app.db, code, app.clock.now());
      const survey = found && (await findSurveyWithQuestions(app.db, found.surveyId));
      // A survey not for code holders opens nothing through a code (decision 046; codes are made only for theirs).
      if (!found || !survey || !includesGroup(survey.participants, 'codici'))
        throw await failedLookup(request);
      return {
        code: found.code,
        classLabel: found.classLabel,
        expiresAt: found.expiresAt.toISOString(),
        schoolSite: { name: found.schoolSiteName, municipality: found.municipality },
        survey: toOpenSurvey(survey, 'codici'),
      };
    },
  );

  registerEndpoint(
    app,
    submitAccessCodeResponse,
    { config: perIp(ACCESS_CODE_RATE_LIMITS.submit) },
    async (request, reply) => {
      const { code } = request.params;
      reply.header('cache-control', 'no-store');
      await app.ceilings.accessCodes.beforeLookup(request);
      if (!isAccessCodeShape(code)) throw await failedLookup(request);
      const now = app.clock.now();
      // Validated against the questions before any use is taken: a 422 changes nothing.
      const found = await repo.findUsableCode(app.db, code, now);
      const survey = found && (await findSurveyWithQuestions(app.db, found.surveyId));
      if (!found || !survey || !includesGroup(survey.participants, 'codici'))
        throw await failedLookup(request);
      // Only the code holders' questions (decision 046): an answer to a teachers' question is refused by name.
      const questions = questionsForGroup(survey.participants, survey.questions, 'codici');
      const notForYou = answersNotForGroup(survey.questions, questions, request.body.answers);
      if (notForYou.length > 0)
        throw new FieldErrors(
          Object.fromEntries(notForYou.map((id) => [answerFieldKey(id), [SURVEY_MESSAGES.answerNotForYou]])),
        );
      const checked = validateAnswers(questions, request.body.answers);
      if (!checked.valid)
        throw new FieldErrors(
          Object.fromEntries(
            Object.entries(checked.errors).map(([id, messages]) => [answerFieldKey(id), messages]),
          ),
        );
      await withTransaction(app.db, async (tx) => {
        if (found.ownerUserId !== null) {
          // A teacher's code: the plesso's answers of the day are capped (decision 029), counted under a per-plesso lock.
          await repo.lockSiteAnswers(tx, found.schoolSiteId);
          if (
            (await repo.teacherCodeAnswersSince(
              tx,
              found.surveyId,
              found.schoolSiteId,
              startOfRomeDay(now),
            )) >= app.env.ACCESS_CODE_SITE_MAX_USES_PER_DAY
          ) {
            throw new HttpError(429, 'access_code_site_daily_limit', ACCESS_CODE_MESSAGES.siteDailyUses);
          }
        }
        // The use and the response commit together; no use left (raced away meanwhile) → the same 404.
        const taken = await repo.takeUse(tx, found.code, now);
        if (!taken || taken.surveyId !== survey.id) throw codeNotFound();
        await repo.insertCodeResponse(tx, {
          surveyId: taken.surveyId,
          schoolSiteId: taken.schoolSiteId,
          accessCodeId: taken.id,
          answers: checked.answers,
          submittedAt: now,
        });
      });
      return { message: ACCESS_CODE_MESSAGES.thanks };
    },
  );
}
