import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can } from '@portale/shared/auth';
import {
  ACCESS_CODE_MAX_USES,
  ACCESS_CODE_MESSAGES,
  ACCESS_CODE_STATE_LABELS,
  accessCodeSheet,
  createAccessCodes,
  exportAccessCodes,
  getAccessCodeOptions,
  getPublicAccessCode,
  listAccessCodes,
  revokeAccessCode,
  submitAccessCodeResponse,
  type AccessCodeSummary,
} from '@portale/shared/surveys';
import { signedInActorOf } from '../../plugins/service-context.ts';
import { registerEndpoint, type RequestWithParams } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { HttpError } from '../../lib/http-error.ts';
import { forEachBatch } from '../../lib/list.ts';
import { authOf } from '../../plugins/authorization.ts';
import { ACCESS_CODE_SHEET_TEMPLATE_KEY, SURVEYS_TEMPLATES } from './surveys.templates.ts';
import { findCurrent } from '../messages/index.ts';
import { lastValidInstant, renderAccessCodeSheet } from '../../lib/render/access-code-sheet.ts';
import { romeToday } from './access-code-values.ts';
import * as repo from './access-codes.repository.ts';
import * as service from './access-codes.service.ts';
import { toOpenSurvey } from './surveys.repository.ts';

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
async function codeOf(request: RequestWithParams<{ id: number }>) {
  const { id } = request.params;
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
    const staff = can(authOf(request).user, 'create:access-code');
    const items = await service.createCodes(app.db, app.env, signedInActorOf(request), staff, request.body);
    reply.header('cache-control', 'no-store');
    return { items };
  });

  registerEndpoint(app, revokeAccessCode, { resource: codeOf }, (request) =>
    service.revokeCode(app.db, signedInActorOf(request), request.params.id),
  );

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
    return service.codeNotFound();
  };

  registerEndpoint(
    app,
    getPublicAccessCode,
    { config: perIp(ACCESS_CODE_RATE_LIMITS.read) },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      await app.ceilings.accessCodes.beforeLookup(request);
      const usable = await service.usableCode(app.db, request.params.code, app.clock.now());
      if (!usable) throw await failedLookup(request);
      const { found, survey } = usable;
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
      reply.header('cache-control', 'no-store');
      await app.ceilings.accessCodes.beforeLookup(request);
      const { code } = request.params;
      const outcome = await service.submitCodeResponse(
        app.db,
        app.env,
        code,
        request.body.answers,
        app.clock.now(),
      );
      if (!outcome.ok) throw await failedLookup(request);
      return { message: ACCESS_CODE_MESSAGES.thanks };
    },
  );
}
