import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/transaction.ts';
import { passwordResets, users } from '../../db/schema/index.ts';

/** What the password flows need of a user: who to write to, the policy's context, the current hash. */
const PASSWORD_USER = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  status: users.status,
  passwordHash: users.passwordHash,
};

export type PasswordUser = NonNullable<Awaited<ReturnType<typeof findPasswordUser>>>;

export async function findPasswordUser(db: DbOrTx, userId: number) {
  const [row] = await db.select(PASSWORD_USER).from(users).where(eq(users.id, userId));
  return row;
}

export async function insertPasswordReset(
  db: DbOrTx,
  reset: { userId: number; tokenHash: string; createdAt: Date; expiresAt: Date; ip: string },
): Promise<void> {
  await db.insert(passwordResets).values(reset);
}

/** The reset link of a token hash with its user, whatever its state. */
export async function findResetWithUser(db: DbOrTx, tokenHash: string) {
  const [row] = await db
    .select({ user: PASSWORD_USER, usedAt: passwordResets.usedAt, expiresAt: passwordResets.expiresAt })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(eq(passwordResets.tokenHash, tokenHash));
  return row;
}

/** Stores a new password hash and clears the "must change" flag. */
export async function updatePasswordHash(
  db: DbOrTx,
  userId: number,
  passwordHash: string,
  now: Date,
): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash, mustChangePassword: false, updatedAt: now })
    .where(eq(users.id, userId));
}

/** Voids the user's unused reset links. */
export async function voidUnusedResets(db: DbOrTx, userId: number, now: Date): Promise<void> {
  await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

/** Marks the address verified (a link sent to it was used) unless it already was. */
export async function markEmailVerifiedByLink(db: DbOrTx, userId: number, now: Date): Promise<void> {
  await db
    .update(users)
    .set({ emailVerifiedAt: now })
    .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)));
}

/**
 * A forgot-password request's account by address (case-insensitive; `email` is already lower-case)
 * with the number of links it asked for since `since`, in one statement, or undefined.
 */
export async function findResetCandidate(db: DbOrTx, email: string, since: Date) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      status: users.status,
      recentResets: sql<number>`(select count(*)::int from ${passwordResets} where ${passwordResets.userId} = ${users.id} and ${passwordResets.createdAt} > ${since.toISOString()}::timestamptz)`,
    })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  return row;
}

/**
 * The reset link, its e-mail and the audit row in one statement, written only when `send`: with
 * `send` false the same statement runs and writes nothing, so a request for an address that gets no
 * e-mail holds the database exactly as long as one that does (the embedded database has one
 * connection: the next request must not wait longer behind an existing account).
 */
export async function recordResetRequest(
  db: DbOrTx,
  input: {
    send: boolean;
    userId: number | null;
    tokenHash: string;
    now: Date;
    expiresAt: Date;
    ip: string;
    message: {
      channel: string;
      recipient: string;
      templateKey: string;
      templateVersion: number;
      subject: string | null;
      htmlBody: string | null;
      textBody: string;
    };
  },
): Promise<void> {
  const m = input.message;
  const now = input.now.toISOString();
  await db.execute(sql`
    with request as (
      select ${input.userId}::bigint as user_id where ${input.send}::boolean
    ), reset as (
      insert into password_resets (user_id, token_hash, created_at, expires_at, ip)
      select user_id, ${input.tokenHash}, ${now}::timestamptz, ${input.expiresAt.toISOString()}::timestamptz, ${input.ip} from request
      returning user_id
    ), mail as (
      insert into outbox (channel, recipient, template_key, template_version, subject, html_body, text_body, next_attempt_at, created_at)
      select ${m.channel}, ${m.recipient}, ${m.templateKey}, ${m.templateVersion}::int, ${m.subject}, ${m.htmlBody}, ${m.textBody}, ${now}::timestamptz, ${now}::timestamptz from reset
      returning id
    )
    insert into audit_log (action, actor_user_id, entity, entity_id, ip, at)
    select 'auth.password.reset_requested', user_id, 'user', user_id::text, ${input.ip}, ${now}::timestamptz from reset`);
}
