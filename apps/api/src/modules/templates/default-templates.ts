import { ACCOUNTS_TEMPLATES } from '../accounts/accounts.templates.ts';
import { ADHESION_PANEL_TEMPLATES } from '../adhesion-panel/adhesion-panel.templates.ts';
import { ADHESIONS_TEMPLATES } from '../adhesions/adhesions.templates.ts';
import { BOOKINGS_TEMPLATES } from '../bookings/bookings.templates.ts';
import { ENROLMENT_TEMPLATES } from '../enrolment/enrolment.templates.ts';
import { PUBLIC_TEMPLATES } from '../public/public.templates.ts';
import { REVIEWS_TEMPLATES } from '../reviews/reviews.templates.ts';
import { SUBSTITUTIONS_TEMPLATES } from '../substitutions/substitutions.templates.ts';
import { SURVEYS_TEMPLATES } from '../surveys/surveys.templates.ts';
import type { TemplateDefinition } from '../messages/template-definition.ts';

export type { TemplateDefinition };

/** Version 1 of every template, composed from the features that own them (staff edit later versions). */
export const DEFAULT_TEMPLATES: TemplateDefinition[] = [
  ...ACCOUNTS_TEMPLATES,
  ...PUBLIC_TEMPLATES,
  ...ENROLMENT_TEMPLATES,
  ...ADHESIONS_TEMPLATES,
  ...ADHESION_PANEL_TEMPLATES,
  ...REVIEWS_TEMPLATES,
  ...BOOKINGS_TEMPLATES,
  ...SUBSTITUTIONS_TEMPLATES,
  ...SURVEYS_TEMPLATES,
];
