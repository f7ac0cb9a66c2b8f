import type { TemplateDefinition } from './message-templates.defaults.ts';

/** Messages and documents of the onboarding issue (9): adhesions. */
export const ADHESIONS_TEMPLATES: TemplateDefinition[] = [];
