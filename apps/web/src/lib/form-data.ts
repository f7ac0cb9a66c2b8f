import { ApiError } from './http-client.ts';

/** Per-field messages, keyed by the field name of the form. */
export type FieldErrors = Record<string, string>;

/** Outcome of a form action: a form-level message and/or per-field messages, or a success. */
export interface FormResult {
  ok?: boolean;
  message?: string;
  errors?: FieldErrors;
}

export function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/** The first message of each field of a zod error (path joined with dots). */
export function issuesToErrors(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || 'form';
    errors[key] ??= issue.message;
  }
  return errors;
}

/** An API failure as a form result: 422 per-field errors next to the fields, the message on top. */
export function failureResult(
  error: unknown,
  fallback = 'Operazione non riuscita. Riprova più tardi.',
): FormResult {
  if (!(error instanceof ApiError)) return { message: fallback };
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(error.body?.errors ?? {})) {
    if (messages[0]) errors[field] = messages[0];
  }
  return { message: error.message || fallback, errors };
}

/** Runs an action's API work; a failure becomes a form result instead of an error screen. */
export async function orFailure<T>(work: () => Promise<T>): Promise<T | FormResult> {
  try {
    return await work();
  } catch (error) {
    // A redirect thrown by the work (a `Response`) is navigation, not a failure.
    if (error instanceof Response) throw error;
    return failureResult(error);
  }
}

/** An action whose form says what to do in its `intent` field; the intent is echoed in the result. */
export function intentAction<T extends FormResult>(run: (intent: string, form: FormData) => Promise<T>) {
  return async ({ request }: { request: Request }): Promise<(T | FormResult) & { intent: string }> => {
    const form = await request.formData();
    const intent = text(form, 'intent');
    return { intent, ...(await orFailure(() => run(intent, form))) };
  };
}
