import type { TemplateDefinition } from './message-templates.defaults.ts';

/** Messages and documents of the onboarding issue (9): enrolment. */
export const ENROLMENT_TEMPLATES: TemplateDefinition[] = [];
