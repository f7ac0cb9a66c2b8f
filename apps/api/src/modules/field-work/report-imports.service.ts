import type { FastifyInstance } from 'fastify';
import {
  DRAFT_EXPORT_KIND,
  DRAFT_EXPORT_VERSIONS,
  DRAFT_IMPORT_MAX_REPORTS,
  DraftFileReportSchema,
  REPORT_IMPORT_MESSAGES as M,
  REPORT_IMPORT_STATUSES,
  VisitReportSchema,
  visitReportable,
  type DraftFileReport,
  type ReportImportBody,
  type ReportImportItem,
  type ReportImportResult,
  type ReportImportStatus,
  type VisitReport,
} from '@portale/shared/field-work';
import type { Db } from '../../db/client.ts';
import { auditWrite, type SignedInActor } from '../../lib/audit.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { teachersOfSite } from './detector-sites.repository.ts';
import { landPhotos, photoBudget, previewPhotos } from './report-imports.photos.ts';
import { detectorName, visitsOf, type VisitFacts } from './report-imports.repository.ts';
import * as submissions from './visit-report-submissions.repository.ts';
import { reportVisit } from './visits.service.ts';

const EXCERPT = 160;

/** The file's text → its reports, or a 422 on `content` with a clear Italian message (nothing changes). */
export function parseDraftFile(content: string): { exportedAt: string | null; reports: DraftFileReport[] } {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    throw fieldError('content', M.notJson);
  }
  const file = data as { kind?: unknown; version?: unknown; exportedAt?: unknown; reports?: unknown };
  if (
    typeof file !== 'object' ||
    file === null ||
    file.kind !== DRAFT_EXPORT_KIND ||
    !Array.isArray(file.reports)
  )
    throw fieldError('content', M.wrongKind);
  if (typeof file.version !== 'number' || !DRAFT_EXPORT_VERSIONS.includes(file.version))
    throw fieldError('content', M.wrongVersion);
  if (file.reports.length === 0) throw fieldError('content', M.empty);
  if (file.reports.length > DRAFT_IMPORT_MAX_REPORTS) throw fieldError('content', M.tooMany);
  const reports: DraftFileReport[] = [];
  const seen = new Set<string>();
  file.reports.forEach((raw, i) => {
    const parsed = DraftFileReportSchema.safeParse(raw);
    if (!parsed.success) throw fieldError('content', M.badReport(i + 1, parsed.error.issues[0]!.message));
    if (seen.has(parsed.data.clientReportId)) throw fieldError('content', M.duplicate(i + 1));
    seen.add(parsed.data.clientReportId);
    reports.push(parsed.data);
  });
  return { exportedAt: typeof file.exportedAt === 'string' ? file.exportedAt : null, reports };
}

/** What one report of the file would become, by the rules of the device's sync (visits.service `reportVisit`). */
async function classify(
  db: Db,
  detectorUserId: number,
  draft: DraftFileReport,
  visit: VisitFacts | undefined,
  now: Date,
): Promise<{ item: ReportImportItem; body: VisitReport | null }> {
  const item: ReportImportItem = {
    clientReportId: draft.clientReportId,
    visitId: draft.visitId,
    site: visit?.site ?? null,
    scheduledAt: visit?.scheduledAt.toISOString() ?? null,
    visitState: visit?.state ?? null,
    excerpt: draft.report.trim().slice(0, EXCERPT),
    teachersMet: new Set(draft.teachersMet).size,
    writtenAt: draft.createdAt ?? null,
    status: 'new',
    message: null,
    photos: [],
  };
  const as = (status: ReportImportStatus, message: string | null, body: VisitReport | null = null) => ({
    item: { ...item, status, message },
    body,
  });
  const parsed = VisitReportSchema.safeParse({
    report: draft.report,
    teachersMet: draft.teachersMet,
    clientReportId: draft.clientReportId,
  });
  if (!parsed.success) return as('invalid', parsed.error.issues[0]!.message);
  const body = parsed.data;
  const stored = await submissions.findSubmission(db, draft.clientReportId);
  if (stored) {
    const hash = submissions.payloadHashOf(draft.visitId, body.report, [...new Set(body.teachersMet)]);
    if (stored.payloadHash !== hash || stored.detectorUserId !== detectorUserId)
      return as('invalid', M.reused);
    return stored.outcome === 'conflict' ? as('conflict', M.keptConflict) : as('received', null);
  }
  if (!visit) return as('invalid', M.visitNotFound);
  if (visit.state === 'annullata' || visit.state === 'mancata') return as('conflict', M.changed, body);
  if (visit.detectorUserId !== detectorUserId) return as('conflict', M.reassigned, body);
  const resubmission = visit.state === 'svolta' && visit.reviewState === 'da_correggere';
  if (visit.state !== 'pianificata' && !resubmission) return as('invalid', M.notReportable);
  const teachers = [...new Set(body.teachersMet)];
  if ((await teachersOfSite(db, visit.site.id, teachers)).length !== teachers.length)
    return as('invalid', M.teacherNotOfSite);
  if (!visitReportable(visit.scheduledAt, now)) return as('invalid', M.notYetHeld);
  return as('new', null, body);
}

/**
 * Staff import a detector's "Esporta bozze" file (issue 39, decision 051): without `confirm` only what
 * each report would become, and each of its photos; with it, each new or conflicting report goes
 * through `reportVisit` on the detector's behalf (idempotent by its client id: a second import creates
 * nothing), then the photos of each report on the server land through the tus upload's checks
 * (idempotent by report and index), then one audit row for the import.
 */
export async function importReports(
  app: FastifyInstance,
  actor: SignedInActor,
  detectorUserId: number,
  { content, confirm }: ReportImportBody,
): Promise<ReportImportResult> {
  const db = app.db;
  const { exportedAt, reports } = parseDraftFile(content);
  const detector = await detectorName(db, detectorUserId);
  const byId = await visitsOf(db, [...new Set(reports.map((r) => r.visitId))]);
  const budget = await photoBudget(app, detectorUserId);
  const items: ReportImportItem[] = [];
  for (const draft of reports) {
    const { item, body } = await classify(db, detectorUserId, draft, byId.get(draft.visitId), actor.at);
    if (!confirm) {
      items.push({ ...item, photos: await previewPhotos(app, draft, item.status, budget) });
      continue;
    }
    const sent = body === null ? item : await send(db, actor, detectorUserId, item, body);
    items.push({ ...sent, photos: await landPhotos(app, detectorUserId, draft, sent.status, actor) });
  }
  const counts = Object.fromEntries(
    REPORT_IMPORT_STATUSES.map((s) => [s, items.filter((i) => i.status === s).length]),
  ) as ReportImportResult['counts'];
  if (confirm)
    await auditWrite(db, actor, {
      action: 'detector.reports-imported',
      entity: 'user',
      entityId: detectorUserId,
      after: {
        exportedAt,
        counts,
        clientReportIds: items.map((i) => i.clientReportId),
        photosLanded: items.flatMap((i) => i.photos).filter((p) => p.status === 'landed').length,
      },
    });
  return { detector: detector!, exportedAt, items, counts, applied: confirm };
}

/** One report through the device's path, on the detector's behalf; its answer as the item's status. */
async function send(
  db: Db,
  actor: SignedInActor,
  detectorUserId: number,
  item: ReportImportItem,
  body: VisitReport,
): Promise<ReportImportItem> {
  try {
    const outcome = await reportVisit(db, actor, item.visitId, body, { detectorUserId });
    if (outcome.ok) return { ...item, status: 'imported', visitState: outcome.visit.state, message: null };
    const kept = outcome.code === 'visit_changed' || outcome.code === 'visit_reassigned';
    return { ...item, status: kept ? 'conflict' : 'invalid', message: outcome.message };
  } catch (error) {
    // A rule that changed between the look and the send (the visit was reported meanwhile…): not imported.
    if (!(error instanceof HttpError)) throw error;
    const fields = (error as { errors?: Record<string, string[]> }).errors;
    const message = fields ? (Object.values(fields)[0]?.[0] ?? error.message) : error.message;
    return { ...item, status: 'invalid', message };
  }
}
