import type { Db } from '../db/client.ts';
import { messageTemplates } from '../db/schema/index.ts';
import { DEFAULT_TEMPLATES } from '../modules/templates/default-templates.ts';

/** Inserts version 1 of each default template when the key has none yet; safe on every start. */
export async function seedMessageTemplates(db: Db): Promise<void> {
  await db
    .insert(messageTemplates)
    .values(DEFAULT_TEMPLATES.map((t) => ({ ...t, version: 1 })))
    .onConflictDoNothing();
}
