// The face of modules/messages: what other modules may import from it (decision 044). Nothing else leaves it.
export { enqueueMessage, renderOutboxMessage } from './outbox.repository.ts';
export type { TemplateDefinition, TemplateKey } from './template-definition.ts';
export { emailTemplate, smsTemplate } from './template-definition.ts';
export { findCurrent } from './templates.repository.ts';
export * as templateStore from './templates.repository.ts';
