import { reportVisit } from '@portale/shared/field-work';
import { ApiError, callApi } from '../../../lib/api-client.ts';
import { renewOfflineSession } from '../../../lib/session.ts';
import type { ReportTransport, SendOutcome } from './report-queue.ts';

/** Answers that may change by themselves (no network, session to renew, server busy): keep the report queued. */
const TRANSIENT = new Set([0, 401, 408, 419, 425, 429, 500, 502, 503, 504]);

const KEPT_CONFLICTS = new Set(['visit_changed', 'visit_reassigned']);

/** The server's refusal as the queue sees it; `undefined` when the report must stay queued (the error is rethrown). */
export function outcomeOfError(error: unknown): SendOutcome | undefined {
  if (!(error instanceof ApiError) || TRANSIENT.has(error.status)) return undefined;
  // The server kept the version sent for staff to decide (decisions 043, 051).
  if (error.status === 409 && KEPT_CONFLICTS.has(String(error.body?.code)))
    return { kind: 'conflict', message: error.message };
  return { kind: 'rejected', message: error.message };
}

/** Sends through the app's API client (token, XSRF); the client id makes the POST safe to replay. */
export const sendReportOverApi: ReportTransport = async (record) => {
  // After an offline start the session has no access token yet: renew it first (no-op otherwise).
  await renewOfflineSession();
  try {
    await callApi(reportVisit, {
      params: { visitId: record.visitId },
      body: { report: record.report, teachersMet: record.teachersMet, clientReportId: record.clientReportId },
    });
    return { kind: 'sent' };
  } catch (error) {
    const outcome = outcomeOfError(error);
    if (outcome) return outcome;
    throw error;
  }
};
