/** Version 1 of a message or document template, as its feature declares it in `<feature>.templates.ts`. */
export interface TemplateDefinition<K extends string = string> {
  key: K;
  /** `pdf` templates are documents rendered with pdf-lib, never queued in the outbox. */
  channel: 'email' | 'sms' | 'pdf';
  subject: string | null;
  htmlBody: string | null;
  textBody: string;
}

/**
 * Every template key. Each `<feature>.templates.ts` adds its own keys here (declaration merging), so
 * `messages/` imports no feature and a key that no feature declares fails `tsc`, not a request.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface TemplateKeys {}

export type TemplateKey = keyof TemplateKeys;

/** Version 1 of an e-mail template (the features' `<feature>.templates.ts` declare theirs with it). */
export const emailTemplate = <K extends string>(
  key: K,
  subject: string,
  htmlBody: string,
  textBody: string,
): TemplateDefinition<K> => ({ key, channel: 'email', subject, htmlBody, textBody });

/** Version 1 of an SMS template: text only. */
export const smsTemplate = <K extends string>(key: K, textBody: string): TemplateDefinition<K> => ({
  key,
  channel: 'sms',
  subject: null,
  htmlBody: null,
  textBody,
});
