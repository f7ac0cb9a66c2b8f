import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/**
 * The detector's local store of visit reports (issue 39, decision 043): drafts and the send queue in
 * IndexedDB, keyed by the client-generated id the server uses for idempotency; the photos of each report
 * (version 3, decision 055) beside them. Versioned: every upgrade
 * step carries the records of the previous version forward; nothing is ever dropped by an upgrade.
 */
export const REPORT_DB_NAME = 'portale-visit-reports';
export const REPORT_DB_VERSION = 3;

/** `draft` while typing; `queued` once the detector pressed "Invia"; `sent` when the server has it. */
export const OFFLINE_REPORT_STATUSES = ['draft', 'queued', 'sent', 'conflict', 'failed'] as const;
export type OfflineReportStatus = (typeof OFFLINE_REPORT_STATUSES)[number];

export interface OfflineReport {
  clientReportId: string;
  visitId: number;
  report: string;
  teachersMet: number[];
  status: OfflineReportStatus;
  createdAt: string;
  updatedAt: string;
  attempts: number;
  /** The server's Italian message for a conflict or a refusal; the network error otherwise. */
  lastError: string | null;
  sentAt: string | null;
}

/** Version 1: drafts only (what the autosave of the form needs). Kept to upgrade from. */
export interface ReportDbV1 extends DBSchema {
  drafts: {
    key: string;
    value: {
      clientReportId: string;
      visitId: number;
      report: string;
      teachersMet: number[];
      savedAt: string;
    };
  };
}

/**
 * A photo of a report (version 3, decision 055): compressed in the browser, kept as a Blob until the
 * server has it. `uploadUrl` is where its tus upload goes on (kept here, so it resumes after a reload).
 */
export interface OfflinePhoto {
  clientReportId: string;
  /** 0–4: the photo's place in the report (the server binds the upload to it). */
  index: number;
  blob: Blob;
  type: 'image/jpeg' | 'image/png';
  size: number;
  width: number;
  height: number;
  /** SHA-256 (hex) of the blob: the server checks the bytes that arrive against it. */
  sha256: string;
  uploadUrl: string | null;
  uploadedAt: string | null;
  addedAt: string;
}

/** Version 2: reports and meta (decision 043). Kept to upgrade from. */
export interface ReportDbV2 extends DBSchema {
  reports: { key: string; value: OfflineReport; indexes: { byStatus: OfflineReportStatus; byVisit: number } };
  meta: { key: string; value: string };
}

interface ReportDbV3 extends ReportDbV2 {
  photos: { key: [string, number]; value: OfflinePhoto; indexes: { byReport: string } };
}

export type ReportDb = IDBPDatabase<ReportDbV3>;

export async function openReportStore(name = REPORT_DB_NAME): Promise<ReportDb> {
  const db: ReportDb = await openDB<ReportDbV3>(name, REPORT_DB_VERSION, {
    async upgrade(db, oldVersion, _newVersion, tx) {
      if (oldVersion < 1) {
        // A fresh install goes straight to the current shape (the steps below assume v1 exists).
        (db as unknown as IDBPDatabase<ReportDbV1>).createObjectStore('drafts', {
          keyPath: 'clientReportId',
        });
      }
      if (oldVersion < 2) {
        const reports = db.createObjectStore('reports', { keyPath: 'clientReportId' });
        reports.createIndex('byStatus', 'status');
        reports.createIndex('byVisit', 'visitId');
        db.createObjectStore('meta');
        // Carry every v1 draft forward, unsent.
        const legacyTx = tx as unknown as {
          objectStore(name: 'drafts'): { getAll(): Promise<ReportDbV1['drafts']['value'][]> };
        };
        for (const d of await legacyTx.objectStore('drafts').getAll()) {
          await tx.objectStore('reports').put({
            clientReportId: d.clientReportId,
            visitId: d.visitId,
            report: d.report,
            teachersMet: d.teachersMet,
            status: 'draft',
            createdAt: d.savedAt,
            updatedAt: d.savedAt,
            attempts: 0,
            lastError: null,
            sentAt: null,
          });
        }
        (db as unknown as IDBPDatabase).deleteObjectStore('drafts');
      }
      if (oldVersion < 3) {
        // Photos in a store of their own (the reports' list and summary never read the blobs);
        // `reports` and `meta` are not touched: every unsent record is carried forward as it is.
        const photos = db.createObjectStore('photos', { keyPath: ['clientReportId', 'index'] });
        photos.createIndex('byReport', 'clientReportId');
      }
    },
    blocking() {
      // Another tab runs a newer version: let it upgrade (our records are in the database, not lost).
      db.close();
    },
  });
  return db;
}
