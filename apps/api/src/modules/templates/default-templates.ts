import { ACCOUNTS_TEMPLATES } from '../accounts/index.ts';
import { ADHESION_PANEL_TEMPLATES } from '../adhesion-panel/index.ts';
import { ADHESIONS_TEMPLATES } from '../adhesions/index.ts';
import { BOOKINGS_TEMPLATES } from '../bookings/index.ts';
import { ENROLMENT_TEMPLATES } from '../enrolment/index.ts';
import { FIELD_WORK_TEMPLATES } from '../field-work/index.ts';
import { IDENTITY_TEMPLATES } from '../identity/index.ts';
import { PUBLIC_TEMPLATES } from '../public/index.ts';
import { REVIEWS_TEMPLATES } from '../reviews/index.ts';
import { SUBSTITUTIONS_TEMPLATES } from '../substitutions/index.ts';
import { SURVEYS_TEMPLATES } from '../surveys/index.ts';
import type { TemplateDefinition } from '../messages/index.ts';

export type { TemplateDefinition };

/** Version 1 of every template, composed from the features that own them (staff edit later versions). */
export const DEFAULT_TEMPLATES: TemplateDefinition[] = [
  ...ACCOUNTS_TEMPLATES,
  ...IDENTITY_TEMPLATES,
  ...PUBLIC_TEMPLATES,
  ...ENROLMENT_TEMPLATES,
  ...ADHESIONS_TEMPLATES,
  ...ADHESION_PANEL_TEMPLATES,
  ...REVIEWS_TEMPLATES,
  ...FIELD_WORK_TEMPLATES,
  ...BOOKINGS_TEMPLATES,
  ...SUBSTITUTIONS_TEMPLATES,
  ...SURVEYS_TEMPLATES,
];
