import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { authSessions } from './auth.ts';
import { id, ts } from './columns.ts';
import { ownerUserId, users } from './users.ts';

/** The public identity providers a user may log in with (decision 048). */
export const IDENTITY_PROVIDERS = ['cie', 'spid'] as const;

/** A user's login identity at CIE or SPID: one per provider and subject (decision 048). */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: id(),
    userId: ownerUserId(),
    provider: text('provider', { enum: IDENTITY_PROVIDERS }).notNull(),
    /** The provider's `sub` (pairwise at CIE). */
    subject: text('subject').notNull(),
    /** The codice fiscale the provider certified, normalised (no TINIT-, upper-case). */
    taxCode: text('tax_code').notNull(),
    /** The authentication level of the last login (`https://www.spid.gov.it/SpidL2`…). */
    acr: text('acr'),
    linkedAt: ts('linked_at').notNull(),
    lastLoginAt: ts('last_login_at'),
  },
  (t) => [
    uniqueIndex('user_identities_provider_subject_idx').on(t.provider, t.subject),
    index('user_identities_user_idx').on(t.userId),
  ],
);

/**
 * One login started at a provider: its state, nonce and PKCE verifier, kept server-side and bound
 * to the browser by the hash of a short-lived cookie. Used once: a replayed state finds `used_at`.
 */
export const identityLoginAttempts = pgTable(
  'identity_login_attempts',
  {
    id: id(),
    provider: text('provider', { enum: IDENTITY_PROVIDERS }).notNull(),
    stateHash: text('state_hash').notNull(),
    /** Hash of the browser cookie that started it. */
    browserHash: text('browser_hash').notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    /** SPID (SAML, decision 052): the entity id of the identity provider the user chose. */
    idpEntityId: text('idp_entity_id'),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [uniqueIndex('identity_login_attempts_state_idx').on(t.stateHash)],
);

/**
 * A verified identity the portal could not sign in yet: linking to an account whose codice fiscale
 * is only self-declared (`user_id` set: the user proves control with the password), or no account
 * (`user_id` null: the web offers registration prefilled). Short-lived, used once.
 */
export const pendingIdentities = pgTable(
  'pending_identities',
  {
    id: id(),
    tokenHash: text('token_hash').notNull(),
    provider: text('provider', { enum: IDENTITY_PROVIDERS }).notNull(),
    subject: text('subject').notNull(),
    taxCode: text('tax_code').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    acr: text('acr'),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    /** Other attributes the provider gave (e-mail, phone, birth date), for the registration's prefill. */
    attributes: jsonb('attributes')
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    /**
     * The proof by a code to the account's verified e-mail (instead of its password): the code's HMAC,
     * when it was sent and until when it holds, how many were sent and how many wrong ones were typed.
     */
    linkCodeHash: text('link_code_hash'),
    linkCodeSentAt: ts('link_code_sent_at'),
    linkCodeExpiresAt: ts('link_code_expires_at'),
    linkCodesSent: integer('link_codes_sent').notNull().default(0),
    linkCodeFailures: integer('link_code_failures').notNull().default(0),
    /**
     * What the provider's logout needs of the session the link will open (SPID: NameID, SessionIndex;
     * CIE: the sealed ID token and access token), so that single logout reaches it too.
     */
    logoutKeys: jsonb('logout_keys'),
  },
  (t) => [uniqueIndex('pending_identities_token_idx').on(t.tokenHash)],
);

/**
 * What a session opened by SPID needs for SAML single logout (decision 052): the provider, the
 * NameID (and its format) and the SessionIndex of its assertion; then our LogoutRequest's ID when
 * the user logs out here, and when the provider confirmed it (its LogoutResponse) or asked it (its
 * own LogoutRequest). Goes with its session.
 */
export const spidSessions = pgTable(
  'spid_sessions',
  {
    sessionId: bigint('session_id', { mode: 'number' })
      .primaryKey()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    idpEntityId: text('idp_entity_id').notNull(),
    nameId: text('name_id').notNull(),
    nameIdFormat: text('name_id_format'),
    sessionIndex: text('session_index'),
    createdAt: ts('created_at').notNull(),
    /** The ID of our LogoutRequest to the provider (the InResponseTo its LogoutResponse must carry). */
    logoutRequestId: text('logout_request_id'),
    logoutRequestedAt: ts('logout_requested_at'),
    /** The provider ended its session too: its LogoutResponse, or its own LogoutRequest. */
    providerLoggedOutAt: ts('provider_logged_out_at'),
  },
  (t) => [
    index('spid_sessions_name_id_idx').on(t.idpEntityId, t.nameId),
    uniqueIndex('spid_sessions_logout_request_idx').on(t.logoutRequestId),
  ],
);

/**
 * What a session opened by CIE needs for the provider's logout (OpenID Connect RP-initiated logout and
 * token revocation): the ID token (the `id_token_hint`) and the access token, both sealed with the
 * application secret; then when our logout asked the provider. Goes with its session.
 */
export const cieSessions = pgTable('cie_sessions', {
  sessionId: bigint('session_id', { mode: 'number' })
    .primaryKey()
    .references(() => authSessions.id, { onDelete: 'cascade' }),
  idTokenSealed: text('id_token_sealed').notNull(),
  accessTokenSealed: text('access_token_sealed'),
  createdAt: ts('created_at').notNull(),
  logoutRequestedAt: ts('logout_requested_at'),
});
