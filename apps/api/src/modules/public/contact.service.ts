import { CONTACT_TOPIC_LABELS, type ContactMessageInput } from '@portale/shared/public';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { enqueueMessage } from '../messages/index.ts';
import { insertContactMessage, setContactMessageOutbox } from './contact.repository.ts';

type ContactMessage = Pick<ContactMessageInput, 'name' | 'email' | 'topic' | 'message'>;

const ROME_TIME = new Intl.DateTimeFormat('it-IT', {
  timeZone: 'Europe/Rome',
  dateStyle: 'long',
  timeStyle: 'short',
});

/** Stores a contact message and queues its notice to the staff address, in one transaction. */
export async function receiveContactMessage(
  db: Db,
  input: ContactMessage,
  staffEmail: string,
  now: Date,
): Promise<void> {
  await withTransaction(db, async (tx) => {
    const messageId = await insertContactMessage(tx, input, now);
    const outboxId = await enqueueMessage(tx, {
      templateKey: 'email.contatto-staff',
      recipient: staffEmail,
      data: {
        messageId,
        when: ROME_TIME.format(now),
        name: input.name,
        email: input.email,
        topicLabel: CONTACT_TOPIC_LABELS[input.topic],
        message: input.message,
      },
      now,
    });
    await setContactMessageOutbox(tx, messageId, outboxId);
  });
}
