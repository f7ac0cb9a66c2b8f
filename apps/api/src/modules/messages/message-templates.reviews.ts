import type { TemplateDefinition } from './message-templates.defaults.ts';

/** Messages and documents of the onboarding issue (9): reviews. */
export const REVIEWS_TEMPLATES: TemplateDefinition[] = [];
