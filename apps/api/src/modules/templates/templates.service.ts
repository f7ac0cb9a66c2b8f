import { TEMPLATE_MESSAGES, type TemplateUpdateSchema } from '@portale/shared/templates';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite, type Actor } from '../../lib/audit.ts';
import { FieldErrors } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { templateStore as repo } from '../messages/index.ts';
import { draftErrors } from './template-catalog.ts';

export const templateNotFound = () => new HttpError(404, 'not_found', TEMPLATE_MESSAGES.notFound);

/**
 * A new version of template `key` from the editor's draft, audited. The draft must be valid for the
 * key and start from the version in use (`baseVersion`): one saved meanwhile is a 409. A draft equal
 * to the version in use saves nothing. Returns the version in use afterwards.
 */
export async function updateTemplate(
  db: Db,
  actor: Actor,
  key: string,
  update: z.output<typeof TemplateUpdateSchema>,
): Promise<repo.TemplateRow> {
  const { baseVersion, ...draft } = update;
  const saved = await withTransaction(db, async (tx) => {
    const current = await repo.findCurrent(tx, key);
    if (!current) throw templateNotFound();
    const errors = draftErrors(key, current.channel, draft);
    if (Object.keys(errors).length) throw new FieldErrors(errors);
    if (baseVersion !== current.version)
      throw new HttpError(409, 'template_stale', TEMPLATE_MESSAGES.stale(current.version, baseVersion));
    if (draft.subject === current.subject && draft.textBody === current.textBody) return current;
    const version = current.version + 1;
    const ok = await repo.insertVersion(tx, {
      key,
      channel: current.channel,
      subject: draft.subject,
      // The editor's text is plain text / Markdown: an edited e-mail's HTML is rendered from it.
      htmlBody: null,
      textBody: draft.textBody,
      version,
      createdByUserId: actor.userId,
      restoredFromVersion: null,
      createdAt: actor.at,
    });
    if (!ok) throw new HttpError(409, 'template_stale', TEMPLATE_MESSAGES.stale(version, baseVersion));
    await auditWrite(tx, actor, {
      action: 'template.updated',
      entity: 'template',
      entityId: key,
      before: { version: current.version, subject: current.subject, textBody: current.textBody },
      after: { version, subject: draft.subject, textBody: draft.textBody },
    });
    return repo.findCurrent(tx, key);
  });
  return saved!;
}

/**
 * An old version of template `key` brought back as a new version (it records which one), audited.
 * Restoring the version in use is a 409. Returns the version in use afterwards.
 */
export async function restoreTemplateVersion(
  db: Db,
  actor: Actor,
  key: string,
  from: number,
): Promise<repo.TemplateRow> {
  const restored = await withTransaction(db, async (tx) => {
    const [current, old] = [await repo.findCurrent(tx, key), await repo.findVersion(tx, key, from)];
    if (!current) throw templateNotFound();
    if (!old) throw new HttpError(404, 'not_found', TEMPLATE_MESSAGES.versionNotFound);
    if (old.version === current.version)
      throw new HttpError(409, 'template_current', TEMPLATE_MESSAGES.alreadyCurrent(from));
    const version = current.version + 1;
    const ok = await repo.insertVersion(tx, {
      key,
      channel: current.channel,
      subject: old.subject,
      htmlBody: old.htmlBody,
      textBody: old.textBody,
      version,
      createdByUserId: actor.userId,
      restoredFromVersion: from,
      createdAt: actor.at,
    });
    if (!ok) throw new HttpError(409, 'template_stale', TEMPLATE_MESSAGES.stale(version, current.version));
    await auditWrite(tx, actor, {
      action: 'template.restored',
      entity: 'template',
      entityId: key,
      before: { version: current.version, subject: current.subject, textBody: current.textBody },
      after: { version, restoredFromVersion: from, subject: old.subject, textBody: old.textBody },
    });
    return repo.findCurrent(tx, key);
  });
  return restored!;
}
