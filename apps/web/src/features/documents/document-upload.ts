import type { EndpointInput } from '@portale/shared/http';
import {
  createDocument,
  DOCUMENT_MAX_BYTES,
  DOCUMENT_MESSAGES,
  replaceDocumentFile,
  type StaffDocument,
} from '@portale/shared/documents';
import { callApi } from '../../lib/api-client.ts';

/** The chosen file, checked as far as the browser can (the API checks the bytes): a PDF, not empty, within the limit. */
export function fileProblem(file: FormDataEntryValue | null): string | null {
  if (!(file instanceof File) || file.size === 0) return DOCUMENT_MESSAGES.empty;
  if (!/\.pdf$/i.test(file.name) && file.type !== 'application/pdf') return DOCUMENT_MESSAGES.notPdf;
  if (file.size > DOCUMENT_MAX_BYTES) return DOCUMENT_MESSAGES.tooLarge;
  return null;
}

/** The query of a new document's upload (its fields travel in the query, the file is the body). */
type CreateQuery = NonNullable<EndpointInput<typeof createDocument>['query']>;

/** Sends the PDF as the request body (the API reads the raw bytes; the fields travel in the query). */
export async function sendPdf(
  file: File,
  target: { documentId?: number; query: Record<string, string> },
): Promise<StaffDocument> {
  const upload = { body: file, contentType: 'application/pdf' };
  if (target.documentId !== undefined)
    return callApi(replaceDocumentFile, {
      params: { documentId: target.documentId },
      query: { ...target.query, fileName: file.name },
      ...upload,
    });
  // The fields go as the form gave them: the API validates them (a 422 with Italian messages).
  const query = { ...target.query, fileName: file.name } as unknown as CreateQuery;
  return callApi(createDocument, { query, ...upload });
}
