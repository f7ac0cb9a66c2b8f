import { and, asc, desc, eq, inArray, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { messageTemplates, outbox } from '../../db/schema/index.ts';
import { renderMessage, type TemplateData } from '../../lib/render/template-render.ts';
import type { TemplateKey } from './template-definition.ts';

export interface MessageRequest {
  /** A key some feature declares in its `<feature>.templates.ts`: a typo fails `tsc`. */
  templateKey: TemplateKey;
  recipient: string;
  data: TemplateData;
  now: Date;
  /** Files sent with an e-mail (a booking's `.ics`), stored base64 in the outbox row. */
  attachments?: { name: string; contentType: string; base64: string }[];
}

/**
 * Renders the newest version of a template and writes the message to the outbox. Call it with the
 * transaction of the change that causes the message, so both commit or neither does.
 */
export async function enqueueMessage(db: Db, request: MessageRequest): Promise<number> {
  const [row] = await db
    .insert(outbox)
    .values(await renderOutboxMessage(db, request))
    .returning({ id: outbox.id });
  return row!.id;
}

/** The outbox row of a message: the newest version of its template, rendered with its data (not written). */
export async function renderOutboxMessage(db: Db, request: MessageRequest) {
  const [template] = await db
    .select()
    .from(messageTemplates)
    .where(eq(messageTemplates.key, request.templateKey))
    .orderBy(desc(messageTemplates.version))
    .limit(1);
  if (!template) throw new Error(`Message template not found: ${request.templateKey}`);
  if (template.channel === 'pdf')
    throw new Error(`Template ${request.templateKey} is a document, not a message`);
  const isEmail = template.channel === 'email';
  const { subject, html: htmlBody, text } = renderMessage(template, request.data);
  return {
    channel: template.channel,
    recipient: request.recipient,
    templateKey: template.key,
    templateVersion: template.version,
    subject,
    htmlBody,
    textBody: text,
    attachments: isEmail && request.attachments?.length ? request.attachments : null,
    nextAttemptAt: request.now,
    createdAt: request.now,
  };
}

export type OutboxRow = typeof outbox.$inferSelect;

/**
 * Claims up to `limit` due messages, oldest first, in one statement: each row gets a lease (its next
 * attempt moves to `leaseUntil`) under a row lock taken with `FOR UPDATE SKIP LOCKED`, so workers of
 * several API instances polling at the same moment each take different messages and none is sent
 * twice. A worker that dies mid-send leaves its lease to run out; the message is then retried.
 */
export async function claimDueMessages(
  db: Db,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<OutboxRow[]> {
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.status, 'pending'), lte(outbox.nextAttemptAt, now)))
    .orderBy(asc(outbox.nextAttemptAt), asc(outbox.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(outbox)
    .set({ nextAttemptAt: leaseUntil })
    .where(inArray(outbox.id, due))
    .returning();
  return claimed.sort((a, b) => a.id - b.id);
}

export async function markSent(db: Db, id: number, now: Date, deliveryRef: string): Promise<void> {
  await db
    .update(outbox)
    .set({ status: 'sent', sentAt: now, deliveryRef, lastError: null })
    .where(eq(outbox.id, id));
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
