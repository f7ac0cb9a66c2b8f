import type { FastifyRequest } from 'fastify';
import { can, canSome, type OwnedResource, type PermissionCheck } from '@portale/shared/auth';
import { ERROR_MESSAGES } from '@portale/shared/http';
import { getPage, ACCESS_MESSAGES, evaluateAccess, type PageId } from '@portale/shared/pages';
import { HttpError } from '../lib/http-error.ts';
import type { AuthContext } from './session/session.ts';

const REASON_CODES = {
  'password-change-required': ['password_change_required', ACCESS_MESSAGES.passwordChangeRequired],
  'contacts-unverified': ['contacts_unverified', ACCESS_MESSAGES.contactsUnverified],
  'principal-document-unsigned': ['principal_document_unsigned', ACCESS_MESSAGES.principalDocumentUnsigned],
  forbidden: ['forbidden', ACCESS_MESSAGES.forbidden],
} as const;

function unauthenticated() {
  return new HttpError(401, 'unauthenticated', ACCESS_MESSAGES.unauthenticated);
}

/** A check that runs before the input is parsed: it throws the refusal, or returns (synchronously). */
export type RequestCheck = (request: FastifyRequest) => void;

/**
 * A session is required. A user who must change the password may only use the routes that allow it
 * (change password, me, logout).
 */
export function requireAuth(options: { allowPendingPasswordChange?: boolean } = {}): RequestCheck {
  return (request) => {
    if (!request.auth) throw unauthenticated();
    if (request.auth.user.mustChangePassword && !options.allowPendingPasswordChange) {
      throw new HttpError(403, ...REASON_CODES['password-change-required']);
    }
  };
}

/** The authenticated context; call only after `requireAuth` or `requirePage`. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}

/** preHandler: the same guards and access rule as the web page `pageId` (one table for both sides). */
export function requirePage(pageId: PageId) {
  const page = getPage(pageId);
  return async (request: FastifyRequest) => {
    if (!request.auth) throw unauthenticated();
    const decision = evaluateAccess(page, request.auth.user);
    if (decision.kind === 'allow') return;
    if (decision.reason === 'unauthenticated') throw unauthenticated();
    if (decision.reason === 'already-authenticated') return;
    const [code, message] = REASON_CODES[decision.reason];
    throw new HttpError(403, code, message);
  };
}

/** The conditions every portal page applies before its role rule (seed-spec §2): the API applies them too. */
const PORTAL_CONDITIONS = {
  guards: ['auth', 'update-password', 'has-verified-all-contacts', 'sign-principal-document'] as const,
};

/** Loads the record a check is about; `undefined` = no such record (404). */
export type ResourceLoader = (request: FastifyRequest) => Promise<OwnedResource | undefined>;

/** The guards a page applies before its role rule: an endpoint of that page applies them instead of the portal's. */
function conditionsOf(pageId: PageId | undefined) {
  if (!pageId) return PORTAL_CONDITIONS;
  return { guards: getPage(pageId).guards.filter((g) => g !== 'has-role-or-permission') };
}

function assertPortalConditions(request: FastifyRequest, pageId?: PageId): AuthContext {
  const auth = request.auth;
  if (!auth) throw unauthenticated();
  const decision = evaluateAccess(conditionsOf(pageId), auth.user);
  if (
    decision.kind !== 'allow' &&
    decision.reason !== 'unauthenticated' &&
    decision.reason !== 'already-authenticated'
  ) {
    const [code, message] = REASON_CODES[decision.reason];
    throw new HttpError(403, code, message);
  }
  return auth;
}

/**
 * May this user hold `check` at all (on some record)? Runs before the input is parsed, so a guest gets
 * 401 and a user without the grant 403 whatever they send (no validation detail leaks).
 */
export function requireGrant(
  check: PermissionCheck,
  conditionsOfPage?: PageId,
  options: { anyOnly?: boolean } = {},
): RequestCheck {
  return (request) => {
    const auth = assertPortalConditions(request, conditionsOfPage);
    const granted = options.anyOnly ? can(auth.user, check) : canSome(auth.user, check);
    if (!granted) throw new HttpError(403, ...REASON_CODES.forbidden);
  };
}

/**
 * preHandler, the only way to protect a data endpoint: a session (401), the portal conditions of the
 * seed (403; or those of the page `conditionsOfPage`), then `can(user, check, resource)` from shared (403). With `loadResource`, the record is
 * loaded first: an unknown record is a 404 and `:own` grants are checked against its owners.
 */
export function requirePermission(
  check: PermissionCheck,
  loadResource?: ResourceLoader,
  conditionsOfPage?: PageId,
) {
  return async (request: FastifyRequest) => {
    const auth = assertPortalConditions(request, conditionsOfPage);
    const resource = loadResource ? await loadResource(request) : undefined;
    if (loadResource && !resource) throw new HttpError(404, 'not_found', ERROR_MESSAGES.notFound);
    if (!can(auth.user, check, resource)) throw new HttpError(403, ...REASON_CODES.forbidden);
  };
}
