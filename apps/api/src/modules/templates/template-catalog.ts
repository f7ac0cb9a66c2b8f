import {
  TEMPLATE_BODY_MAX,
  TEMPLATE_MESSAGES,
  TEMPLATE_SMS_MAX,
  type TemplateChannel,
} from '@portale/shared/templates';
import { DEFAULT_TEMPLATES, type TemplateDefinition } from './default-templates.ts';
import { placeholdersOf, TemplateSyntaxError, type TemplateData } from '../../lib/render/template-render.ts';

/**
 * What each template may contain: the placeholders of its default definition (subject, HTML and
 * text), derived from `DEFAULT_TEMPLATES`, the one source — the code that sends a message supplies
 * exactly those values, so an edit can use any of them and nothing else.
 */
export const ALLOWED_PLACEHOLDERS: ReadonlyMap<string, readonly string[]> = new Map(
  DEFAULT_TEMPLATES.map((t: TemplateDefinition) => [
    t.key,
    [...new Set([t.subject, t.htmlBody, t.textBody].flatMap((text) => (text ? placeholdersOf(text) : [])))],
  ]),
);

export const allowedPlaceholders = (key: string): readonly string[] => ALLOWED_PLACEHOLDERS.get(key) ?? [];

/** What an e-mail or SMS exists to deliver: the link to open, the code to type, the link to cancel. */
const DELIVERED = ['link', 'code', 'cancelLink'];

/**
 * The placeholders an edited message must keep in its text: those of `DELIVERED` its default text
 * has (a password reset without its link reaches the user and is useless). Documents have none.
 */
export const REQUIRED_PLACEHOLDERS: ReadonlyMap<string, readonly string[]> = new Map(
  DEFAULT_TEMPLATES.map((t: TemplateDefinition) => [
    t.key,
    t.channel === 'pdf' ? [] : placeholdersOf(t.textBody).filter((name) => DELIVERED.includes(name)),
  ]),
);

export const maxLengthOf = (channel: TemplateChannel) =>
  channel === 'sms' ? TEMPLATE_SMS_MAX : TEMPLATE_BODY_MAX;

/** Per-field Italian errors of a draft for a key (empty: it can be saved and previewed). */
export function draftErrors(
  key: string,
  channel: TemplateChannel,
  draft: { subject: string | null; textBody: string },
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (channel === 'sms') {
    if (draft.subject !== null) add('subject', TEMPLATE_MESSAGES.noSubject);
    if (draft.textBody.length > TEMPLATE_SMS_MAX)
      add('textBody', TEMPLATE_MESSAGES.smsTooLong(TEMPLATE_SMS_MAX, draft.textBody.length));
  } else if (draft.subject === null)
    add('subject', channel === 'pdf' ? TEMPLATE_MESSAGES.title : TEMPLATE_MESSAGES.subject);
  const allowed = allowedPlaceholders(key);
  for (const field of ['subject', 'textBody'] as const) {
    const text = draft[field];
    if (text === null) continue;
    try {
      const unknown = placeholdersOf(text).filter((name) => !allowed.includes(name));
      if (unknown.length) add(field, TEMPLATE_MESSAGES.unknownPlaceholder(unknown, [...allowed]));
      if (field === 'textBody') {
        const used = placeholdersOf(text);
        const missing = (REQUIRED_PLACEHOLDERS.get(key) ?? []).filter((name) => !used.includes(name));
        if (missing.length) add(field, TEMPLATE_MESSAGES.missingPlaceholder(missing));
      }
    } catch (error) {
      if (!(error instanceof TemplateSyntaxError)) throw error;
      add(field, error.message);
    }
  }
  return errors;
}

/** Example values of every placeholder, for previews (plausible, clearly fictitious). */
const SAMPLE: TemplateData = {
  firstName: 'Maria',
  name: 'Maria Rossi',
  email: 'maria.rossi@esempio.it',
  link: 'https://portale.esempio.it/collegamento?token=ESEMPIO',
  loginLink: 'https://portale.esempio.it/accedi',
  forgotLink: 'https://portale.esempio.it/password-dimenticata',
  portalLink: 'https://portale.esempio.it/portale',
  profileLink: 'https://portale.esempio.it/portale/profilo',
  contactLink: 'https://portale.esempio.it/contatti',
  adhesionLink: 'https://portale.esempio.it/portale/adesione',
  cancelLink: 'https://portale.esempio.it/prenotazioni?token=ESEMPIO',
  code: '123456',
  when: '23 novembre 2026 alle 10:30',
  since: '2 novembre 2026',
  signedAt: '23 novembre 2026 alle 10:30',
  date: '23 novembre 2026',
  title: 'Incontro di presentazione del programma',
  where: 'Roma, Sala conferenze',
  note: 'Manca il numero di telefono della segreteria.',
  reason: 'L’istituto partecipa già a un’altra indagine quest’anno.',
  message: 'Buongiorno, vorrei sapere come aggiungere un plesso.',
  messageId: 'CT-2026-0042',
  nextStep: 'Accedi al portale e completa i dati mancanti.',
  kindLabel: 'referente d’istituto',
  rolesLabel: 'staff Sylla',
  topicLabel: 'Adesione al programma',
  stateLabel: 'In revisione',
  methodLabel: 'firma con codice SMS',
  sessionsNote: 'le altre sessioni aperte',
  inviterName: 'Giulia Bianchi',
  instituteName: 'Istituto Comprensivo Esempio',
  ministryCode: 'RMIC000000',
  principalName: 'Paolo Verdi',
  principalTaxCode: 'VRDPLA70A01H501X',
  firstContactName: 'Maria Rossi (maria.rossi@esempio.it)',
  address: 'Via Roma 1 – 00100',
  municipality: 'Roma',
  province: 'RM',
  region: 'Lazio',
  certifiedEmail: 'rmic000000@pec.istruzione.it',
  schoolSites:
    '- Plesso Centrale (RMEE000001), Primaria, Roma (RM)\n- Plesso Nord (RMMM000002), Secondaria di primo grado, Roma (RM)',
  documentSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  surveyTitle: 'Indagine nazionale sulle scuole 2026',
  lastDay: '31/01/2027',
  lockMinutes: '15',
  roleLabel: 'Dirigente scolastico',
  successorName: 'Paolo Verdi',
  adhesionNote: 'L’adesione firmata resta valida.',
};

/** The example values of a template's placeholders (a name without an example shows as «name»). */
export function sampleData(key: string): TemplateData {
  return Object.fromEntries(allowedPlaceholders(key).map((name) => [name, SAMPLE[name] ?? `«${name}»`]));
}
