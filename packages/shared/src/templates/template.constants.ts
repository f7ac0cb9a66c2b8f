/** Channels of a stored template (product §3): a `pdf` template is a document rendered with pdf-lib. */
export const TEMPLATE_CHANNELS = ['email', 'sms', 'pdf'] as const;
export type TemplateChannel = (typeof TEMPLATE_CHANNELS)[number];
export const TEMPLATE_CHANNEL_LABELS: Record<TemplateChannel, string> = {
  email: 'E-mail',
  sms: 'SMS',
  pdf: 'Documento PDF',
};
export const TEMPLATE_SUBJECT_MAX = 200;
export const TEMPLATE_BODY_MAX = 20000;
/** An SMS body longer than this is refused (3 concatenated GSM segments). */
export const TEMPLATE_SMS_MAX = 459;
