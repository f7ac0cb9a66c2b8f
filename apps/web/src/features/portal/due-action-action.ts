import {
  ACTION_EVIDENCE_FILE_MAX_BYTES,
  ACTION_MESSAGES,
  transitionAction,
  uploadActionEvidence,
  type ActionEvidence,
} from '@portale/shared/actions';
import { parseId } from '@portale/shared/validation';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { text } from '../../lib/form-data.ts';

/** The form intent of a due action's step (start, complete), posted by the widget's fetcher. */
export const DUE_ACTION_INTENT = 'due-action';

/** The fetcher every due action of the page shares: one step at a time, its outcome read by the list. */
export const DUE_ACTION_FETCHER = 'due-actions';

/** What the person reads after a step: the success on top of the list, or the refusal by its field. */
export interface DueActionOutcome {
  actionId: number;
  ok?: string;
  error?: string;
  /** The field the refusal is about (`evidenceText`, `evidenceFile`), shown next to it. */
  field?: string;
}

const FAILED = 'Operazione non riuscita.';

/** The field a refusal without its own field belongs to: the file, for an action proven by a file. */
const fileField = (evidence: string) => (evidence === 'file' ? 'evidenceFile' : undefined);

/**
 * A due action's step, as the portal home's action runs it: `to=in_corso` starts it; `to=completata`
 * completes it with the proof its model asks for (text, or a file sent as the request body). A proof
 * missing or too large is refused here and nothing is sent; the API's refusal goes next to its field.
 */
export async function dueActionStep(form: FormData): Promise<DueActionOutcome | null> {
  const actionId = parseId(text(form, 'actionId'));
  if (actionId === undefined) return null;
  const title = text(form, 'title');
  const evidence = text(form, 'evidence') as ActionEvidence;
  const refuse = (error: string, field?: string): DueActionOutcome => ({
    actionId,
    error,
    ...(field ? { field } : {}),
  });
  const starting = text(form, 'to') === 'in_corso';
  // A refusal of the start has no field to stand by: it is shown under the action.
  const fallbackField = starting ? undefined : fileField(evidence);
  try {
    if (starting) {
      await callApi(transitionAction, { params: { actionId }, body: { to: 'in_corso' } });
      return { actionId, ok: `«${title}» è in corso.` };
    }
    if (evidence === 'file') {
      const file = form.get('evidenceFile');
      if (!(file instanceof File) || file.size === 0)
        return refuse('Scegli il file di prova (PDF, PNG o JPEG).', 'evidenceFile');
      if (file.size > ACTION_EVIDENCE_FILE_MAX_BYTES)
        return refuse(ACTION_MESSAGES.evidenceTooLarge, 'evidenceFile');
      // Sent as its own type when the contract accepts it (PDF, PNG, JPEG), otherwise as octet-stream.
      await callApi(uploadActionEvidence, {
        params: { actionId },
        query: { filename: file.name },
        body: file,
      });
      return { actionId, ok: `«${title}» è completata: lo staff verificherà il file.` };
    }
    const evidenceText = text(form, 'evidenceText').trim();
    if (evidence === 'testo' && !evidenceText) return refuse(ACTION_MESSAGES.evidenceText, 'evidenceText');
    await callApi(transitionAction, {
      params: { actionId },
      body: { to: 'completata', ...(evidenceText ? { evidenceText } : {}) },
    });
    return {
      actionId,
      ok: `«${title}» è completata${evidence === 'nessuna' ? '' : ': lo staff verificherà la prova'}.`,
    };
  } catch (error) {
    if (!(error instanceof ApiError))
      return refuse(error instanceof Error ? error.message : FAILED, fallbackField);
    const field = Object.keys(error.body?.errors ?? {})[0];
    const fieldMessage = field ? error.body?.errors?.[field]?.[0] : undefined;
    return refuse(fieldMessage ?? (error.message || FAILED), field ?? fallbackField);
  }
}
