import type { FastifyRequest } from 'fastify';
import { ACCESS_MESSAGES, evaluateAccess } from '@portale/shared/auth';
import { getPage } from '@portale/shared/pages';
import { HttpError } from '../lib/http-error.ts';
import type { AuthContext } from './session.ts';

const REASON_CODES = {
  'password-change-required': ['password_change_required', ACCESS_MESSAGES.passwordChangeRequired],
  'contacts-unverified': ['contacts_unverified', ACCESS_MESSAGES.contactsUnverified],
  'principal-document-unsigned': ['principal_document_unsigned', ACCESS_MESSAGES.principalDocumentUnsigned],
  forbidden: ['forbidden', ACCESS_MESSAGES.forbidden],
} as const;

function unauthenticated() {
  return new HttpError(401, 'unauthenticated', ACCESS_MESSAGES.unauthenticated);
}

/**
 * preHandler: a session is required. A user who must change the password may only use the routes
 * that allow it (change password, me, logout).
 */
export function requireAuth(options: { allowPendingPasswordChange?: boolean } = {}) {
  return async (request: FastifyRequest) => {
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
export function requirePage(pageId: string) {
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
