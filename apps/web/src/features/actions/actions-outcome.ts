import type { ActionBulkPreviewResult, ActionBulkResult } from '@portale/shared/actions';
import type { FieldErrors } from '../../lib/form-data.ts';

/** What the actions page's `action` answers, per intent (bulk preview and assignment, verify, send back). */
export interface Outcome {
  intent: string;
  ok?: boolean;
  message?: string;
  errors?: FieldErrors;
  values?: Record<string, string>;
  preview?: ActionBulkPreviewResult;
  done?: ActionBulkResult;
}
