import { buildPath } from '@portale/shared/http';
import {
  createDocument,
  DOCUMENT_MAX_BYTES,
  DOCUMENT_MESSAGES,
  replaceDocumentFile,
  StaffDocumentSchema,
  type StaffDocument,
} from '@portale/shared/documents';
import { ApiError, apiRequest, INVALID_RESPONSE_MESSAGE } from '../../lib/api-client.ts';

/** The chosen file, checked as far as the browser can (the API checks the bytes): a PDF, not empty, within the limit. */
export function fileProblem(file: FormDataEntryValue | null): string | null {
  if (!(file instanceof File) || file.size === 0) return DOCUMENT_MESSAGES.empty;
  if (!/\.pdf$/i.test(file.name) && file.type !== 'application/pdf') return DOCUMENT_MESSAGES.notPdf;
  if (file.size > DOCUMENT_MAX_BYTES) return DOCUMENT_MESSAGES.tooLarge;
  return null;
}

/** Sends the PDF as the request body (the API reads the raw bytes; the fields travel in the query). */
export async function sendPdf(
  file: File,
  target: { documentId?: number; query: Record<string, string> },
): Promise<StaffDocument> {
  const path =
    target.documentId === undefined
      ? createDocument.path
      : buildPath(replaceDocumentFile.path, { documentId: target.documentId });
  const raw = await apiRequest<unknown>(path, {
    method: target.documentId === undefined ? 'POST' : 'PUT',
    query: { ...target.query, fileName: file.name },
    headers: { 'content-type': 'application/pdf' },
    // The client passes a Blob through untouched (not JSON).
    body: file as unknown as Record<string, unknown>,
  });
  const parsed = StaffDocumentSchema.safeParse(raw);
  if (!parsed.success) throw new ApiError(502, INVALID_RESPONSE_MESSAGE);
  return parsed.data;
}
