import { draftFileOf } from './draft-export.ts';
import type { OfflinePhoto, OfflineReport, ReportDb } from './report-store.ts';

/** What the server said about one send. A thrown error means "not known": the record stays queued. */
export type SendOutcome =
  { kind: 'sent' } | { kind: 'conflict'; message: string } | { kind: 'rejected'; message: string };

/** Sends one report (with its client id); throws on network errors and transient answers. */
export type ReportTransport = (
  report: Pick<OfflineReport, 'clientReportId' | 'visitId' | 'report' | 'teachersMet'>,
) => Promise<SendOutcome>;

/**
 * Uploads one photo (resumably: `keepUrl` stores where its upload goes on); throws on network errors
 * and transient answers. `sent` also when the server already had it (a replay).
 */
export type PhotoTransport = (
  photo: OfflinePhoto,
  keepUrl: (url: string) => Promise<void>,
) => Promise<SendOutcome>;

/** At most this many photos per report (decision 055; the server refuses a sixth). */
export const PHOTOS_PER_REPORT = 5;
export const TOO_MANY_PHOTOS = 'Al massimo 5 foto per resoconto.';

/** A photo as the form hands it over (already compressed). */
export interface NewPhoto {
  blob: Blob;
  type: OfflinePhoto['type'];
  width: number;
  height: number;
}

async function sha256Of(blob: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export interface QueueSummary {
  /** Not yet on the server: drafts, queued, conflicts and refusals. */
  unsent: number;
  /** Of those, the ones the server kept as conflicts (the visit changed): staff decide, no resend needed. */
  conflicts: number;
  oldestUnsentAt: string | null;
  lastSuccessAt: string | null;
}

export interface ReportQueueOptions {
  store: ReportDb;
  transport: ReportTransport;
  /** Sends the report's photos once the report is on the server (decision 055); none: reports only. */
  photoTransport?: PhotoTransport;
  now?: () => Date;
  newId?: () => string;
  /** Cross-tab lock (Web Locks API) so two tabs do not send at the same time; the server's idempotency makes it safe anyway. */
  locks?: Pick<LockManager, 'request'>;
}

const LAST_SUCCESS = 'lastSuccessAt';
const LOCK_NAME = 'portale-visit-report-queue';

/**
 * The send queue of the detector's visit reports (issue 39, decision 043). Exactly once relies on the
 * server: every send carries the report's client id, so a replay (a lost answer, a second tab, a
 * retry) answers the stored result and never makes a second report.
 */
export function createReportQueue(options: ReportQueueOptions) {
  const { store, transport } = options;
  const now = options.now ?? (() => new Date());
  const newId = options.newId ?? (() => crypto.randomUUID());
  let flushing: Promise<number> | null = null;
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());

  async function update(
    clientReportId: string,
    change: (r: OfflineReport) => Partial<OfflineReport>,
  ): Promise<OfflineReport | undefined> {
    const tx = store.transaction('reports', 'readwrite');
    const current = await tx.store.get(clientReportId);
    if (!current) {
      await tx.done;
      return undefined;
    }
    const next = { ...current, ...change(current) };
    await tx.store.put(next);
    await tx.done;
    return next;
  }

  const photosOf = async (clientReportId: string) =>
    (await store.getAllFromIndex('photos', 'byReport', clientReportId)).sort((a, b) => a.index - b.index);

  /**
   * The report's photos after the report (the server binds each to the report's id and its index): an
   * uploaded photo leaves the device; a refusal stops the report; a network error throws (stays queued).
   */
  async function sendPhotos(
    clientReportId: string,
  ): Promise<Extract<SendOutcome, { kind: 'rejected' }> | null> {
    const photoTransport = options.photoTransport;
    if (!photoTransport) return null;
    for (const photo of await photosOf(clientReportId)) {
      const keepUrl = async (uploadUrl: string) => {
        const current = await store.get('photos', [clientReportId, photo.index]);
        if (current) await store.put('photos', { ...current, uploadUrl });
      };
      const outcome = await photoTransport(photo, keepUrl);
      if (outcome.kind !== 'sent')
        return { kind: 'rejected', message: `Foto ${photo.index + 1}: ${outcome.message}` };
      await store.delete('photos', [clientReportId, photo.index]);
    }
    return null;
  }

  async function sendOne(record: OfflineReport): Promise<boolean> {
    let outcome: SendOutcome;
    try {
      outcome = await transport({
        clientReportId: record.clientReportId,
        visitId: record.visitId,
        report: record.report,
        teachersMet: record.teachersMet,
      });
      // The report is on the server (or was already: a replay): now its photos, resumably.
      if (outcome.kind === 'sent') outcome = (await sendPhotos(record.clientReportId)) ?? outcome;
      // Kept as a conflict: its photos go with it, so staff decide on the whole version (decision 061).
      else if (outcome.kind === 'conflict') {
        const refused = await sendPhotos(record.clientReportId);
        if (refused) outcome = { kind: 'conflict', message: `${outcome.message} ${refused.message}` };
      }
    } catch (error) {
      await update(record.clientReportId, (r) => ({
        attempts: r.attempts + 1,
        lastError: error instanceof Error ? error.message : String(error),
      }));
      return false;
    }
    const at = now().toISOString();
    if (outcome.kind === 'sent') {
      await update(record.clientReportId, (r) => ({
        status: 'sent',
        sentAt: at,
        attempts: r.attempts + 1,
        lastError: null,
      }));
      await store.put('meta', at, LAST_SUCCESS);
      return true;
    }
    await update(record.clientReportId, (r) => ({
      status: outcome.kind === 'conflict' ? 'conflict' : 'failed',
      attempts: r.attempts + 1,
      lastError: outcome.message,
    }));
    return false;
  }

  async function flushQueued(): Promise<number> {
    const queued = await store.getAllFromIndex('reports', 'byStatus', 'queued');
    let sent = 0;
    for (const record of queued.sort((a, b) => a.createdAt.localeCompare(b.createdAt))) {
      // Another tab may have sent it meanwhile: read it again.
      const fresh = await store.get('reports', record.clientReportId);
      if (fresh?.status !== 'queued') continue;
      if (await sendOne(fresh)) sent++;
    }
    return sent;
  }

  const queue = {
    /**
     * Saves the draft as the detector types: the one named, or else the visit's draft on this device,
     * or else a new one with a new client id. Found and written in one transaction, which IndexedDB
     * runs one after the other for the same store: saves that race (quick typing before the first
     * save has answered, a photo added meanwhile, a second tab) make one draft of a visit, not several.
     */
    async saveDraft(input: {
      clientReportId?: string;
      visitId: number;
      report: string;
      teachersMet: number[];
    }): Promise<OfflineReport> {
      const at = now().toISOString();
      const tx = store.transaction('reports', 'readwrite');
      const existing = input.clientReportId
        ? await tx.store.get(input.clientReportId)
        : (await tx.store.index('byVisit').getAll(input.visitId)).find((r) => r.status === 'draft');
      if (existing && existing.status !== 'draft') {
        await tx.done;
        return existing;
      }
      const record: OfflineReport = existing
        ? { ...existing, report: input.report, teachersMet: input.teachersMet, updatedAt: at }
        : {
            clientReportId: input.clientReportId ?? newId(),
            visitId: input.visitId,
            report: input.report,
            teachersMet: input.teachersMet,
            status: 'draft',
            createdAt: at,
            updatedAt: at,
            attempts: 0,
            lastError: null,
            sentAt: null,
          };
      await tx.store.put(record);
      await tx.done;
      notify();
      return record;
    },

    /** The unsent draft of a visit, if any (the form picks it up after the tab was closed). */
    async draftOf(visitId: number): Promise<OfflineReport | undefined> {
      const all = await store.getAllFromIndex('reports', 'byVisit', visitId);
      return all.filter((r) => r.status !== 'sent').sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0];
    },

    list: () => store.getAll('reports'),

    /** The photos of a report still on the device (uploaded ones leave it). */
    photosOf,

    /** Whether some photo of the report has still to be uploaded. */
    async hasPendingPhotos(clientReportId: string): Promise<boolean> {
      return (await store.countFromIndex('photos', 'byReport', clientReportId)) > 0;
    },

    /** A compressed photo added to a draft, at its first free place (at most 5). */
    async addPhoto(clientReportId: string, photo: NewPhoto): Promise<OfflinePhoto> {
      const report = await store.get('reports', clientReportId);
      if (report?.status !== 'draft')
        throw new Error('Il resoconto è già in invio: non si possono aggiungere foto.');
      const taken = new Set((await photosOf(clientReportId)).map((p) => p.index));
      const index = [...Array(PHOTOS_PER_REPORT).keys()].find((i) => !taken.has(i));
      if (index === undefined) throw new Error(TOO_MANY_PHOTOS);
      const record: OfflinePhoto = {
        clientReportId,
        index,
        ...photo,
        size: photo.blob.size,
        sha256: await sha256Of(photo.blob),
        uploadUrl: null,
        uploadedAt: null,
        addedAt: now().toISOString(),
      };
      await store.put('photos', record);
      notify();
      return record;
    },

    /** "Rimuovi": a photo taken off a draft. */
    async removePhoto(clientReportId: string, index: number): Promise<void> {
      const report = await store.get('reports', clientReportId);
      if (report?.status !== 'draft') return;
      await store.delete('photos', [clientReportId, index]);
      notify();
    },

    /** The detector pressed "Invia": queue it and try at once. */
    async submit(clientReportId: string): Promise<OfflineReport | undefined> {
      await update(clientReportId, (r) => (r.status === 'sent' ? {} : { status: 'queued' }));
      await queue.flush();
      return store.get('reports', clientReportId);
    },

    /** Sends every queued report; one flush at a time per tab, and across tabs when the browser has Web Locks. */
    flush(): Promise<number> {
      flushing ??= (async () => {
        try {
          if (options.locks) return await options.locks.request(LOCK_NAME, () => flushQueued());
          return await flushQueued();
        } finally {
          flushing = null;
          notify();
        }
      })();
      return flushing;
    },

    /** The form sent it online (with its client id): the server has it, keep the record as sent. */
    async markSent(clientReportId: string): Promise<void> {
      const at = now().toISOString();
      await update(clientReportId, () => ({ status: 'sent', sentAt: at, lastError: null }));
      await store.put('meta', at, LAST_SUCCESS);
      notify();
    },

    /** One stuck report, on its own: queued again and sent. */
    async retry(clientReportId: string): Promise<OfflineReport | undefined> {
      return queue.submit(clientReportId);
    },

    /** One report removed on its own (the detector decided; export it first if in doubt). */
    async discard(clientReportId: string): Promise<void> {
      for (const photo of await photosOf(clientReportId))
        await store.delete('photos', [clientReportId, photo.index]);
      await store.delete('reports', clientReportId);
      notify();
    },

    /**
     * One report (or every unsent one) as JSON, with the photos still on the device, for a file staff
     * can import if the device breaks (draft-export.ts).
     */
    async exportJson(clientReportId?: string): Promise<string> {
      const records = clientReportId
        ? [await store.get('reports', clientReportId)].filter((r) => r !== undefined)
        : (await store.getAll('reports')).filter((r) => r.status !== 'sent');
      return draftFileOf(records, photosOf, now());
    },

    async summary(): Promise<QueueSummary> {
      const unsent = (await store.getAll('reports')).filter((r) => r.status !== 'sent');
      const oldest = unsent.map((r) => r.createdAt).sort()[0] ?? null;
      return {
        unsent: unsent.length,
        conflicts: unsent.filter((r) => r.status === 'conflict').length,
        oldestUnsentAt: oldest,
        lastSuccessAt: (await store.get('meta', LAST_SUCCESS)) ?? null,
      };
    },

    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** Sends at start, on reconnect (`online`) and when the app gets the focus back. */
    start(target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window): () => void {
      const onSignal = () => void queue.flush();
      target.addEventListener('online', onSignal);
      target.addEventListener('focus', onSignal);
      void queue.flush();
      return () => {
        target.removeEventListener('online', onSignal);
        target.removeEventListener('focus', onSignal);
      };
    },
  };
  return queue;
}

export type ReportQueue = ReturnType<typeof createReportQueue>;
