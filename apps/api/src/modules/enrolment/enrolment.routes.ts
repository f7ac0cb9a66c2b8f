import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  acceptEnrolmentInvitation,
  createEnrolment,
  declineEnrolmentInvitation,
  getEnrolmentInstitute,
  getEnrolmentVerification,
  listEnrolmentInvitations,
  searchEnrolmentInstitutes,
} from '@portale/shared/enrolment';
import { registerEndpoint } from '../../lib/endpoint-route.ts';
import { HttpError } from '../../lib/http-error.ts';
import { authOf } from '../../plugins/authorization.ts';
import { acceptInvitation, declineInvitation, myInvitations } from './enrolment-invitations.service.ts';
import * as repo from './enrolment.repository.ts';
import { enrolInstitute, verificationStatus } from './enrolment.service.ts';

const MAX_RESULTS = 20;

/**
 * The school enrolment (`/iscrizioni/iscrizione`): public, each route with its own per-IP limit; the
 * submission also counts against the portal's hourly ceiling of registrations (`plugins/rate-limits.ts`).
 */
export async function enrolmentRoutes(app: FastifyInstance) {
  const reads = { rateLimit: { max: app.env.ACCOUNT_RATE_LIMIT_MAX * 3, timeWindow: '1 minute' } };
  const writes = { rateLimit: { max: app.env.ACCOUNT_RATE_LIMIT_MAX, timeWindow: '1 minute' } };

  registerEndpoint(app, searchEnrolmentInstitutes, { config: reads }, async (request) => ({
    items: await repo.searchInstituteOptions(app.db, request.query.q, MAX_RESULTS),
  }));

  registerEndpoint(app, getEnrolmentInstitute, { config: reads }, async (request) => {
    const institute = await repo.findEnrolmentInstitute(app.db, request.params.instituteId);
    if (!institute) throw new HttpError(404, 'not_found', 'Istituto non trovato.');
    return institute;
  });

  registerEndpoint(app, getEnrolmentVerification, { config: reads }, async (request) =>
    verificationStatus(app.db, request.params.verificationId, app.clock.now()),
  );

  registerEndpoint(app, createEnrolment, { config: writes }, async (request) =>
    enrolInstitute(app.db, request.body, { now: app.clock.now(), ip: request.ip, webUrl: app.env.publicWebUrl }),
  );

  // The invitations of the signed-in account (issue 32): only the owner decides, someone else's is a 403.
  const invitationContext = (request: FastifyRequest) => ({ userId: authOf(request).user.id, now: app.clock.now(), ip: request.ip });
  registerEndpoint(app, listEnrolmentInvitations, {}, async (request) => ({
    items: await myInvitations(app.db, authOf(request).user.id, app.clock.now()),
  }));
  registerEndpoint(app, acceptEnrolmentInvitation, { config: writes }, async (request) => {
    const result = await acceptInvitation(app.db, request.params.invitationId, invitationContext(request));
    await app.sessions.invalidate({ kind: 'user', userId: authOf(request).user.id });
    return result;
  });
  registerEndpoint(app, declineEnrolmentInvitation, { config: writes }, async (request) =>
    declineInvitation(app.db, request.params.invitationId, invitationContext(request)),
  );
}
