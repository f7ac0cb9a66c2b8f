import { failureResult, text, type FormResult } from '../../lib/form-data.ts';
import { invalidForm } from '../../lib/form-action.ts';

/** The part of a zod schema an edit needs (the contract's body schema). */
interface BodySchema {
  safeParse(
    value: unknown,
  ): { success: true } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/** Outcome of an edit form: saved, nothing to save, or the messages to show. */
export type EditResult = FormResult & { tone?: 'success' | 'info' | 'danger' };

/** Name of the hidden field that carries the values the form was shown with. */
export const INITIAL_FIELD = 'initial';

function normalise(value: unknown): string {
  if (value === null || value === undefined) return '';
  return String(value).trim();
}

/**
 * The fields whose submitted value differs from the one the form showed: PATCH sends only those.
 * A checkbox in `checkboxes` counts as `true` when ticked and `false` otherwise.
 */
export function changedFields(
  form: FormData,
  fields: readonly string[],
  checkboxes: readonly string[] = [],
): Record<string, string | boolean> {
  let initial: Record<string, unknown> = {};
  try {
    initial = JSON.parse(text(form, INITIAL_FIELD) || '{}') as Record<string, unknown>;
  } catch {
    /* no initial values: every field counts as changed */
  }
  const changes: Record<string, string | boolean> = {};
  for (const field of fields) {
    const value = normalise(form.get(field));
    if (value !== normalise(initial[field])) changes[field] = value;
  }
  for (const field of checkboxes) {
    const ticked = form.get(field) === 'true';
    if (ticked !== (initial[field] === true)) changes[field] = ticked;
  }
  return changes;
}

/**
 * The save of an edit form: checks the changes with the contract's schema (the same the API uses),
 * then sends them; a 422 of the API comes back as per-field Italian messages.
 */
export async function saveChanges<C extends Record<string, unknown>>(
  schema: BodySchema,
  changes: C,
  send: (body: C) => Promise<unknown>,
): Promise<EditResult> {
  if (Object.keys(changes).length === 0) return { tone: 'info', message: 'Non hai modificato nessun campo.' };
  const parsed = schema.safeParse(changes);
  if (!parsed.success)
    return {
      tone: 'danger',
      ...invalidForm(parsed.error.issues),
    };
  try {
    await send(changes);
    return {
      ok: true,
      tone: 'success',
      message: 'Modifiche salvate. Lo storico qui sotto riporta la modifica.',
    };
  } catch (error) {
    return { tone: 'danger', ...failureResult(error, 'Salvataggio non riuscito. Riprova più tardi.') };
  }
}
