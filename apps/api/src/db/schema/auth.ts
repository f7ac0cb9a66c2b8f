import { bigint, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ownerUserId as userRef, users } from './users.ts';
import { id, ts } from './columns.ts';

/** A login: one refresh-token family and the access tokens issued in it. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: id(),
    userId: userRef(),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at').notNull().defaultNow(),
    /** Absolute end of the family (refresh-token lifetime from login). */
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    revokedReason: text('revoked_reason'),
    /**
     * The authentication level (`acr`) the session was opened with by SPID or CIE
     * (`https://www.spid.gov.it/SpidL2`…); null for a password (and TOTP) login.
     */
    acr: text('acr'),
  },
  (t) => [index('auth_sessions_user_idx').on(t.userId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    sessionId: bigint('session_id', { mode: 'number' })
      .notNull()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: ts('created_at').notNull().defaultNow(),
    usedAt: ts('used_at'),
    /**
     * The access token issued with this refresh token: revoked when this one is rotated, so that a
     * refresh replaces the access token rather than adding one (issue 32). Null for older rows.
     */
    accessTokenId: bigint('access_token_id', { mode: 'number' }),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

export const accessTokens = pgTable(
  'access_tokens',
  {
    id: id(),
    sessionId: bigint('session_id', { mode: 'number' })
      .notNull()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    userId: userRef(),
    tokenHash: text('token_hash').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('access_tokens_session_idx').on(t.sessionId)],
);

/** Failed logins per key (`ip:<addr>` or `account:<email>`), for slow-down and lock-out. */
export const loginThrottles = pgTable('login_throttles', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lastFailureAt: ts('last_failure_at').notNull(),
  lockedUntil: ts('locked_until'),
});

/**
 * Request counters of the rate limits, shared by every API instance on PostgreSQL: one row per
 * limited key (a keyed hash of the IP or user and the limit, never the address itself) and fixed
 * window. Created UNLOGGED (migration 0007): counters need no crash safety, and skip the WAL.
 */
export const rateLimitHits = pgTable('rate_limit_hits', {
  key: text('key').primaryKey(),
  windowEnd: ts('window_end').notNull(),
  hits: integer('hits').notNull(),
});

/** Append-only record of security and staff actions. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    actorUserId: bigint('actor_user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    action: text('action').notNull(),
    entity: text('entity'),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    at: ts('at').notNull().defaultNow(),
  },
  // The audit's access paths, each newest first (decision 033): a record's history, what a user did (with
  // the record it was done to, so the capped count of a busy actor's page reads the index only).
  (t) => [
    index('audit_log_entity_idx').on(t.entity, t.entityId, t.at, t.id),
    index('audit_log_actor_idx').on(t.actorUserId, t.at, t.id, t.entity, t.entityId),
  ],
);
