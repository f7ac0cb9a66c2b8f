import { HELD_RESPONSE_DECISIONS, decideTeacherHeldResponses } from '@portale/shared/teachers';
import { parseId } from '@portale/shared/validation';
import { callApi } from '../../lib/api-client.ts';

/** The form intent of the held answers' decision, posted by the teacher panel's fetcher. */
export const HELD_RESPONSES_INTENT = 'held-responses';

/** What the staff member reads after deciding: the API's Italian message, or why it failed. */
export interface HeldResponsesOutcome {
  kind: 'success' | 'danger';
  text: string;
}

const FAILED = 'Non è stato possibile registrare la decisione. Riprova più tardi.';

/**
 * Decision 029: staff who decide reviews count a rejected teacher's held answers again or discard them.
 * The route's action (the teachers page) answers the outcome; the router reloads the page's data.
 */
export async function decideHeldResponses(form: FormData): Promise<HeldResponsesOutcome> {
  const teacherId = parseId(String(form.get('teacherId') ?? ''));
  const decision = HELD_RESPONSE_DECISIONS.find((d) => d === form.get('decision'));
  if (teacherId === undefined || decision === undefined) return { kind: 'danger', text: FAILED };
  try {
    const done = await callApi(decideTeacherHeldResponses, { params: { teacherId }, body: { decision } });
    return { kind: 'success', text: done.message };
  } catch (error) {
    return { kind: 'danger', text: error instanceof Error ? error.message : FAILED };
  }
}
