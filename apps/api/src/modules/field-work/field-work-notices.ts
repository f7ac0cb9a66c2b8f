// The e-mails of field work (decisions 055 and 061), queued in the outbox inside the change's transaction.
import type { DbOrTx } from '../../db/transaction.ts';
import { formatRomeDateTime } from '../../lib/format.ts';
import { enqueueMessage } from '../messages/index.ts';
import * as notices from './field-work-notices.repository.ts';
import { visitsOf } from './report-imports.repository.ts';

/** The visits with their plesso, soonest first. */
async function visitsSoonestFirst(tx: DbOrTx, ids: number[]) {
  const byId = await visitsOf(tx, ids);
  return [...byId.values()].sort((a, b) => a.scheduledAt.getTime() - b.scheduledAt.getTime() || a.id - b.id);
}

/** At most this many visits are listed in one message; the rest are counted. */
const LISTED = 30;

/** "3 dicembre 2026 alle ore 10:00 — Scuola primaria Rodari (RMEE00101A)", one line a visit. */
function visitLines(rows: { scheduledAt: Date; site: { name: string; ministryCode: string } }[]): string {
  const lines = rows
    .slice(0, LISTED)
    .map((r) => `${formatRomeDateTime(r.scheduledAt)} — ${r.site.name} (${r.site.ministryCode})`);
  if (rows.length > LISTED) lines.push(`… e altre ${rows.length - LISTED}`);
  return lines.join('\n');
}

/**
 * Tells each former holder which of their planned visits went to another detector (a report they wrote
 * offline is still worth sending: it is kept as a conflict), and the new holder which visits are now
 * theirs (decision 061). In the assignment's transaction: the messages leave with it or not at all.
 */
export async function notifyReassignedVisits(
  tx: DbOrTx,
  moved: { visitId: number; fromDetectorUserId: number }[],
  to: number,
  deps: { webUrl: string; now: Date },
): Promise<void> {
  const rows = await visitsSoonestFirst(
    tx,
    moved.map((m) => m.visitId),
  );
  const visitsLink = `${deps.webUrl}/portale/istituti/rilevatori/plessi`;
  const send = async (
    userId: number,
    templateKey: 'email.visite-riassegnate-ad-altri' | 'email.visite-riassegnate-a-te',
    ids: Set<number>,
  ) => {
    const user = await notices.recipient(tx, userId);
    if (!user) return;
    const theirs = rows.filter((r) => ids.has(r.id));
    await enqueueMessage(tx, {
      templateKey,
      recipient: user.email,
      data: {
        firstName: user.firstName,
        count: String(theirs.length),
        visitList: visitLines(theirs),
        visitsLink,
      },
      now: deps.now,
    });
  };
  const byFormer = new Map<number, Set<number>>();
  for (const m of moved) {
    const ids = byFormer.get(m.fromDetectorUserId) ?? new Set<number>();
    ids.add(m.visitId);
    byFormer.set(m.fromDetectorUserId, ids);
  }
  for (const [userId, ids] of [...byFormer].sort((a, b) => a[0] - b[0]))
    await send(userId, 'email.visite-riassegnate-ad-altri', ids);
  await send(to, 'email.visite-riassegnate-a-te', new Set(moved.map((m) => m.visitId)));
}

/** Tells a report's author that staff deleted one of its photos (decision 055), in the deletion's transaction. */
export async function notifyPhotoDeleted(
  tx: DbOrTx,
  photo: { visitId: number; authorUserId: number; index: number },
  deps: { webUrl: string; now: Date },
): Promise<void> {
  const [row] = await visitsSoonestFirst(tx, [photo.visitId]);
  const user = await notices.recipient(tx, photo.authorUserId);
  if (!row || !user) return;
  await enqueueMessage(tx, {
    templateKey: 'email.visita-foto-eliminata',
    recipient: user.email,
    data: {
      firstName: user.firstName,
      photoNumber: String(photo.index + 1),
      siteName: row.site.name,
      visitDate: formatRomeDateTime(row.scheduledAt),
      visitsLink: `${deps.webUrl}/portale/istituti/plessi/${row.site.id}/visite`,
    },
    now: deps.now,
  });
}
