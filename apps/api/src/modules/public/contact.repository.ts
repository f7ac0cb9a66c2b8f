import { eq } from 'drizzle-orm';
import type { ContactMessageInput } from '@portale/shared/public';
import { contactMessages } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

type ContactMessage = Pick<ContactMessageInput, 'name' | 'email' | 'topic' | 'message'>;

/** Stores a contact message; returns its id. */
export async function insertContactMessage(db: DbOrTx, input: ContactMessage, now: Date): Promise<number> {
  const [row] = await db
    .insert(contactMessages)
    .values({
      name: input.name,
      email: input.email,
      topic: input.topic,
      message: input.message,
      createdAt: now,
    })
    .returning({ id: contactMessages.id });
  return row!.id;
}

/** Links a contact message to the staff notice queued for it. */
export async function setContactMessageOutbox(db: DbOrTx, id: number, outboxId: number): Promise<void> {
  await db.update(contactMessages).set({ outboxId }).where(eq(contactMessages.id, id));
}
