import Fastify, {
  LogController,
  type FastifyLoggerOptions,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { DestinationStream } from 'pino';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from './db/client.ts';
import type { Env } from './env.ts';
import { stdoutLogDestination } from './lib/log-destination.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { createFileStore, type FileStore } from './lib/file-store.ts';
import { trustedListFromEnv } from './modules/adhesions/trust/trusted-list-source.ts';
import { networkRevocationChecker } from './modules/adhesions/trust/revocation.ts';
import { createGates } from './lib/gates.ts';
import { strictValidatorCompiler } from './lib/request-validation.ts';
import { responseSerializerCompiler } from './lib/response-serialization.ts';
import { adhesionPanelRoutes } from './modules/adhesion-panel/adhesion-panel.routes.ts';
import { accountRoutes } from './modules/accounts/account.routes.ts';
import { adhesionRoutes } from './modules/adhesions/adhesions.routes.ts';
import { passwordRoutes } from './modules/accounts/passwords.routes.ts';
import { phoneVerificationRoutes } from './modules/accounts/phone-verifications.routes.ts';
import { registrationRoutes } from './modules/accounts/registrations.routes.ts';
import { schoolSiteSearchRoutes } from './modules/accounts/school-sites.routes.ts';
import { sessionRoutes } from './modules/accounts/sessions.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import {
  authenticateAccessToken,
  parseBearer,
  sessionIdOfRefreshToken,
} from './modules/auth/tokens.repository.ts';
import { mfaRoutes } from './modules/auth/mfa.routes.ts';
import {
  identityRoutes,
  spidOf,
  providerLogout,
  spidRoutes,
  spidSettings,
} from './modules/identity/index.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { portalRoutes } from './modules/portal/portal.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { teacherRoutes } from './modules/teachers/teachers.routes.ts';
import { auditRoutes } from './modules/registry/audit.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { reviewRoutes } from './modules/reviews/reviews.routes.ts';
import { mapRoutes } from './modules/map/map.routes.ts';
import { progressRoutes } from './modules/progress/progress.routes.ts';
import { instituteRoutes } from './modules/registry/institutes.routes.ts';
import { schoolSiteRoutes } from './modules/registry/school-sites.routes.ts';
import { consentRoutes } from './modules/public/consent.routes.ts';
import { contactRoutes } from './modules/public/contact.routes.ts';
import { publicRoutes } from './modules/public/public.routes.ts';
import { enrolmentRoutes } from './modules/enrolment/enrolment.routes.ts';
import { bookingRoutes } from './modules/bookings/bookings.routes.ts';
import { resultsRoutes } from './modules/results/results.routes.ts';
import { decorateResultSnapshots } from './modules/results/results-computation.ts';
import { surveyRoutes } from './modules/surveys/surveys.routes.ts';
import { accessCodeRoutes } from './modules/surveys/access-codes.routes.ts';
import { actionRoutes } from './modules/actions/actions.routes.ts';
import { documentRoutes } from './modules/documents/documents.routes.ts';
import { fieldWorkRoutes } from './modules/field-work/field-work.routes.ts';
import { substitutionsRoutes } from './modules/substitutions/substitutions.routes.ts';
import { templateRoutes } from './modules/templates/templates.routes.ts';
import { errorHandler, frameworkErrors } from './plugins/error-handler.ts';
import { openapi } from './plugins/openapi.ts';
import { originCheck } from './plugins/origin-check.ts';
import { clientErrorHandler, MAX_HEADER_BYTES, requestLimits } from './plugins/request-limits.ts';
import { security } from './plugins/security.ts';
import { session } from './plugins/session/session.ts';
import { xsrf } from './plugins/xsrf.ts';

export interface AppOptions {
  env: Env;
  database: Database;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** Where the API's own logger writes (default: stdout, one write per turn of the event loop); ignored with `logger`. */
  logStream?: DestinationStream;
  /** Where files go (default: the store FILE_STORE names, on disk under FILE_STORE_DIR unless `s3`). */
  files?: FileStore;
}

/**
 * One access-log line per request, written when the answer has gone, instead of Fastify's two
 * ("incoming request", then "request completed"): the same fields, half the lines and half their
 * cost. Every other line Fastify writes (errors, routes not found) stays as it was.
 */
class AccessLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error)
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/**
 * The API's logger. By default it writes to stdout once per turn of the event loop (decision 025):
 * the lines of the requests answered in one turn go out together in one synchronous write when the
 * turn's callbacks are done, and what is pending when the process exits is written by its `exit`.
 *
 * No header is ever logged: the serializers name every field of a request and of an answer, so a
 * bearer token, a cookie, an XSRF token or a Set-Cookie cannot reach a line (test/logging.test.ts).
 * That replaces pino's `redact` paths, which cloned every line to look for headers that these
 * serializers never write (about 5 % of a cached `GET /api/auth/me`).
 */
function loggerOptions(
  level: string,
  stream: DestinationStream,
): FastifyLoggerOptions & { stream: DestinationStream } {
  return {
    level,
    stream,
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: request.url,
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
      res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
    },
  };
}

function trustProxy(value: string): boolean | string {
  if (value === 'true') return true;
  if (value === 'false' || value === '') return false;
  return value;
}

/** Builds the API: plugins first, then every module, listed here so the whole surface is visible. */
export async function buildApp({ env, database, clock = systemClock, logger, logStream, files }: AppOptions) {
  const app = Fastify({
    logger: logger ?? loggerOptions(env.LOG_LEVEL, logStream ?? stdoutLogDestination()),
    trustProxy: trustProxy(env.TRUST_PROXY),
    bodyLimit: 1_048_576,
    // A URL or header block past this is an Italian 431 (clientErrorHandler), not Node's English one.
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    clientErrorHandler,
    return503OnClosing: true,
    frameworkErrors,
    logController: new AccessLog(),
  }).withTypeProvider<ZodTypeProvider>();
  // Zod validation that refuses undeclared body and query fields (400) instead of dropping them.
  app.setValidatorCompiler(strictValidatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  app.decorate('env', env);
  app.decorate('db', database.db);
  app.decorate('clock', clock);
  app.decorate('files', files ?? (await createFileStore(env)));
  if (!files) app.addHook('onClose', async () => app.files.close?.());
  app.decorate('gates', createGates(env, database.kind === 'pglite'));
  app.decorate(
    'trustedList',
    trustedListFromEnv(
      env,
      () => clock.now(),
      (error) => app.log.error({ err: error }, 'trusted list not loaded'),
    ),
  );
  app.decorate(
    'revocation',
    networkRevocationChecker({
      onError: (error) => app.log.warn({ err: error }, 'revocation answer not had'),
    }),
  );

  decorateResultSnapshots(app);

  await app.register(errorHandler);
  await app.register(originCheck);
  await app.register(security);
  await app.register(requestLimits);
  await app.register(openapi);
  // The token lookup lives in modules/auth; the plugins get it here, so plugins/ imports no module.
  const tokens = { parseBearer, authenticateAccessToken, sessionIdOfRefreshToken };
  await app.register(session, { tokens });
  await app.register(xsrf, { tokens });

  await app.register(healthRoutes);
  const spid = spidOf(spidSettings(app.env), {
    now: () => app.clock.now(),
    onRefreshFailure: (error) =>
      app.log.warn({ err: error }, 'SPID metadata not refreshed: the last good read stays in use'),
  });
  await app.register(authRoutes, { providerLogout: providerLogout(app, spid) });
  await app.register(mfaRoutes);
  await app.register(identityRoutes, { spid: spid.idps });
  await app.register(spidRoutes, spid);
  await app.register(passwordRoutes);
  await app.register(sessionRoutes);
  await app.register(registrationRoutes);
  await app.register(schoolSiteSearchRoutes);
  await app.register(phoneVerificationRoutes);
  await app.register(accountRoutes);
  await app.register(portalRoutes);
  await app.register(usersRoutes);
  await app.register(teacherRoutes);
  await app.register(instituteRoutes);
  await app.register(schoolSiteRoutes);
  await app.register(auditRoutes);
  await app.register(dashboardRoutes);
  await app.register(reviewRoutes);
  await app.register(adhesionPanelRoutes);
  await app.register(mapRoutes);
  await app.register(progressRoutes);
  await app.register(publicRoutes);
  await app.register(contactRoutes);
  await app.register(consentRoutes);
  await app.register(adhesionRoutes);
  await app.register(enrolmentRoutes);
  await app.register(bookingRoutes);
  await app.register(resultsRoutes);
  await app.register(surveyRoutes);
  await app.register(accessCodeRoutes);
  await app.register(documentRoutes);
  await app.register(fieldWorkRoutes);
  await app.register(substitutionsRoutes);
  await app.register(actionRoutes);
  await app.register(templateRoutes);
  return app;
}
