import { ERROR_MESSAGES } from '@portale/shared/http';
import { HttpError } from './http-error.ts';

/** A 422 with per-field Italian messages, for rules checked in the handler (same shape as schema errors). */
export class FieldErrors extends HttpError {
  constructor(readonly errors: Record<string, string[]>) {
    super(422, 'validation_failed', ERROR_MESSAGES.validation);
  }
}

export function fieldError(field: string, message: string): FieldErrors {
  return new FieldErrors({ [field]: [message] });
}
