import { and, asc, desc, eq, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { messageTemplates, outbox } from '../../db/schema/index.ts';
import { DEFAULT_TEMPLATES } from './message-templates.defaults.ts';
import { escapeHtml, fillPlaceholders, wrapHtml, wrapText, type TemplateData } from './template-render.ts';

export interface MessageRequest {
  templateKey: string;
  recipient: string;
  data: TemplateData;
  now: Date;
}

/** Inserts version 1 of each default template when the key has none yet; safe on every start. */
export async function seedMessageTemplates(db: Db): Promise<void> {
  await db
    .insert(messageTemplates)
    .values(DEFAULT_TEMPLATES.map((t) => ({ ...t, version: 1 })))
    .onConflictDoNothing();
}

/**
 * Renders the newest version of a template and writes the message to the outbox. Call it with the
 * transaction of the change that causes the message, so both commit or neither does.
 */
export async function enqueueMessage(db: Db, request: MessageRequest): Promise<number> {
  const [template] = await db
    .select()
    .from(messageTemplates)
    .where(eq(messageTemplates.key, request.templateKey))
    .orderBy(desc(messageTemplates.version))
    .limit(1);
  if (!template) throw new Error(`Message template not found: ${request.templateKey}`);
  const subject = template.subject === null ? null : fillPlaceholders(template.subject, request.data);
  const isEmail = template.channel === 'email';
  const htmlBody =
    isEmail && template.htmlBody ? wrapHtml(subject ?? '', fillPlaceholders(template.htmlBody, request.data, escapeHtml)) : null;
  const text = fillPlaceholders(template.textBody, request.data);
  const [row] = await db
    .insert(outbox)
    .values({
      channel: template.channel,
      recipient: request.recipient,
      templateKey: template.key,
      templateVersion: template.version,
      subject,
      htmlBody,
      textBody: isEmail ? wrapText(text) : text,
      nextAttemptAt: request.now,
      createdAt: request.now,
    })
    .returning({ id: outbox.id });
  return row!.id;
}

export type OutboxRow = typeof outbox.$inferSelect;

/** Pending messages whose next attempt is due, oldest first. */
export function listDueMessages(db: Db, now: Date, limit: number): Promise<OutboxRow[]> {
  return db
    .select()
    .from(outbox)
    .where(and(eq(outbox.status, 'pending'), lte(outbox.nextAttemptAt, now)))
    .orderBy(asc(outbox.nextAttemptAt), asc(outbox.id))
    .limit(limit);
}

/** Takes a lease on a due message so that two workers never send it twice at once. */
export async function claimMessage(db: Db, row: OutboxRow, leaseUntil: Date): Promise<boolean> {
  const claimed = await db
    .update(outbox)
    .set({ nextAttemptAt: leaseUntil })
    .where(and(eq(outbox.id, row.id), eq(outbox.status, 'pending'), eq(outbox.nextAttemptAt, row.nextAttemptAt)))
    .returning({ id: outbox.id });
  return claimed.length === 1;
}

export async function markSent(db: Db, id: number, now: Date, deliveryRef: string): Promise<void> {
  await db.update(outbox).set({ status: 'sent', sentAt: now, deliveryRef, lastError: null }).where(eq(outbox.id, id));
}

/** Records a failed attempt: retried at `retryAt`, or `failed` (kept for staff) when attempts run out. */
export async function markAttemptFailed(
  db: Db,
  row: OutboxRow,
  input: { error: string; retryAt: Date | null },
): Promise<void> {
  await db
    .update(outbox)
    .set({
      attempts: row.attempts + 1,
      lastError: input.error.slice(0, 500),
      status: input.retryAt ? 'pending' : 'failed',
      nextAttemptAt: input.retryAt ?? row.nextAttemptAt,
    })
    .where(eq(outbox.id, row.id));
}
