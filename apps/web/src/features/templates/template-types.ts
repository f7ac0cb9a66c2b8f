import type { TemplateDetail, TemplatePreview, TemplateVersion } from '@portale/shared/templates';
import type { FormResult } from '../../lib/form-data.ts';

/** The template open in the editor, with its versions (null detail: no such key). */
export interface Editor {
  detail: TemplateDetail | null;
  versions: TemplateVersion[];
  key: string;
}

/** What the templates page's `action` answers, per intent (save, preview, restore). */
export type Outcome = FormResult & { intent: string; preview?: TemplatePreview; pdf?: Blob };
