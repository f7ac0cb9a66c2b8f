import type { ActionFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { ERROR_MESSAGES } from '@portale/shared/http';
import { failureResult, issuesToErrors, type FormResult } from './form-data.ts';

/** The form-level message of a form refused before it is sent (the API's 422 says the same). */
export const INVALID_FORM_MESSAGE = ERROR_MESSAGES.validation;

/** A form refused by its schema: the one message on top and the first message of each field. */
export function invalidForm(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  message: string = INVALID_FORM_MESSAGE,
): FormResult & { message: string; errors: Record<string, string> } {
  return { message, errors: issuesToErrors(issues) };
}

/** Values checked with a contract's schema: its output, or the form result that says what is wrong. */
export function checkForm<S extends z.ZodType>(
  schema: S,
  values: unknown,
): { ok: true; data: z.output<S> } | { ok: false; result: ReturnType<typeof invalidForm> } {
  const parsed = schema.safeParse(values);
  return parsed.success
    ? { ok: true, data: parsed.data }
    : { ok: false, result: invalidForm(parsed.error.issues) };
}

export interface FormActionSpec<V, S extends z.ZodType, T, R> {
  /** The values of the form, as the schema reads them. */
  read: (form: FormData, args: ActionFunctionArgs) => V;
  /** The contract's body schema: a form it refuses is never sent. */
  schema: S;
  /** The API call, with the parsed values (and the raw ones, for a call that sends them as read). */
  call: (data: z.output<S>, context: { values: V; form: FormData; args: ActionFunctionArgs }) => Promise<T>;
  /** What a success shows, or where it goes (`redirect(…)`). */
  done: (result: T, context: { values: V; form: FormData }) => R;
  /** The message of a failure that is not an API error (network…). */
  fallback?: string;
}

/**
 * A page's `action` in one line: read the form, check it with the contract's schema (a refusal is
 * "Alcuni dati non sono validi…" with the per-field messages, and nothing is sent), call the API
 * (a 422 puts its messages next to the fields, another failure on top), then `done`. A redirect
 * thrown or returned by `call`/`done` is navigation, not a failure.
 */
export function formAction<V, S extends z.ZodType, T, R extends FormResult | Response>(
  spec: FormActionSpec<V, S, T, R>,
): (args: ActionFunctionArgs) => Promise<R | FormResult> {
  return async (args) => {
    const form = await args.request.formData();
    const values = spec.read(form, args);
    const checked = checkForm(spec.schema, values);
    if (!checked.ok) return checked.result;
    try {
      const result = await spec.call(checked.data, { values, form, args });
      return spec.done(result, { values, form });
    } catch (error) {
      if (error instanceof Response) throw error;
      return failureResult(error, spec.fallback);
    }
  };
}
