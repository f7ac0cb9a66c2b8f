import { emailTemplate, type TemplateDefinition } from '../messages/index.ts';

const email = emailTemplate;

/** Messages and documents of the onboarding issue (9): reviews. Placeholders are escaped in the HTML body. */
export const REVIEWS_TEMPLATES = [
  email(
    'email.revisione-insegnante-approvata',
    'Benvenuto nel programma: la tua registrazione è approvata',
    '<p>Gentile {{firstName}},</p><p>lo staff ha approvato la tua registrazione come <strong>{{kindLabel}}</strong>: da oggi fai parte del programma.</p><p>Accedi al portale da <a href="{{portalLink}}">{{portalLink}}</a> per vedere il tuo plesso, le indagini e i codici di accesso delle tue classi.</p>',
    'Gentile {{firstName}},\n\nlo staff ha approvato la tua registrazione come {{kindLabel}}: da oggi fai parte del programma.\n\nAccedi al portale da {{portalLink}} per vedere il tuo plesso, le indagini e i codici di accesso delle tue classi.',
  ),
  email(
    'email.revisione-insegnante-da-correggere',
    'La tua registrazione ha bisogno di correzioni',
    '<p>Gentile {{firstName}},</p><p>lo staff ha esaminato la tua registrazione e ti chiede di correggere alcuni dati:</p><blockquote style="white-space:pre-line">{{note}}</blockquote><p>Completa o correggi il tuo profilo da <a href="{{profileLink}}">{{profileLink}}</a>: quando salvi, la registrazione torna in revisione.</p>',
    'Gentile {{firstName}},\n\nlo staff ha esaminato la tua registrazione e ti chiede di correggere alcuni dati:\n\n{{note}}\n\nCompleta o correggi il tuo profilo da {{profileLink}}: quando salvi, la registrazione torna in revisione.',
  ),
  email(
    'email.revisione-insegnante-respinta',
    'La tua registrazione non è stata accolta',
    '<p>Gentile {{firstName}},</p><p>lo staff ha esaminato la tua registrazione e non ha potuto accoglierla, per questo motivo:</p><blockquote style="white-space:pre-line">{{note}}</blockquote><p>Per chiarimenti scrivi allo staff da <a href="{{contactLink}}">{{contactLink}}</a>.</p>',
    'Gentile {{firstName}},\n\nlo staff ha esaminato la tua registrazione e non ha potuto accoglierla, per questo motivo:\n\n{{note}}\n\nPer chiarimenti scrivi allo staff da {{contactLink}}.',
  ),
  email(
    'email.revisione-adesione-approvata',
    'Adesione approvata: {{instituteName}} partecipa al programma',
    '<p>Gentile {{firstName}},</p><p>lo staff ha approvato l’adesione formale dell’istituto <strong>{{instituteName}}</strong> ({{ministryCode}}): l’istituto è ora <strong>attivo</strong> nel programma.</p><p>Dal portale (<a href="{{portalLink}}">{{portalLink}}</a>) potete seguire plessi, insegnanti e azioni.</p>',
    'Gentile {{firstName}},\n\nlo staff ha approvato l’adesione formale dell’istituto {{instituteName}} ({{ministryCode}}): l’istituto è ora attivo nel programma.\n\nDal portale ({{portalLink}}) potete seguire plessi, insegnanti e azioni.',
  ),
  email(
    'email.revisione-adesione-da-correggere',
    'Adesione da correggere: {{instituteName}}',
    '<p>Gentile {{firstName}},</p><p>lo staff ha esaminato l’adesione formale dell’istituto <strong>{{instituteName}}</strong> ({{ministryCode}}) e chiede queste correzioni:</p><blockquote style="white-space:pre-line">{{note}}</blockquote><p>Correggete i dati e fate firmare di nuovo il documento dalla dirigente o dal dirigente da <a href="{{adhesionLink}}">{{adhesionLink}}</a>.</p>',
    'Gentile {{firstName}},\n\nlo staff ha esaminato l’adesione formale dell’istituto {{instituteName}} ({{ministryCode}}) e chiede queste correzioni:\n\n{{note}}\n\nCorreggete i dati e fate firmare di nuovo il documento dalla dirigente o dal dirigente da {{adhesionLink}}.',
  ),
  email(
    'email.revisione-adesione-respinta',
    'Adesione non accolta: {{instituteName}}',
    '<p>Gentile {{firstName}},</p><p>lo staff ha esaminato l’adesione formale dell’istituto <strong>{{instituteName}}</strong> ({{ministryCode}}) e non ha potuto accoglierla, per questo motivo:</p><blockquote style="white-space:pre-line">{{note}}</blockquote><p>Per chiarimenti scrivete allo staff da <a href="{{contactLink}}">{{contactLink}}</a>.</p>',
    'Gentile {{firstName}},\n\nlo staff ha esaminato l’adesione formale dell’istituto {{instituteName}} ({{ministryCode}}) e non ha potuto accoglierla, per questo motivo:\n\n{{note}}\n\nPer chiarimenti scrivete allo staff da {{contactLink}}.',
  ),
  email(
    'email.revisione-visita-approvata',
    'Resoconto approvato: visita a {{siteName}}',
    '<p>Gentile {{firstName}},</p><p>lo staff ha approvato il resoconto della visita al plesso <strong>{{siteName}}</strong> del {{visitDate}}.</p><p>Le tue visite sono in <a href="{{visitsLink}}">{{visitsLink}}</a>.</p>',
    'Gentile {{firstName}},\n\nlo staff ha approvato il resoconto della visita al plesso {{siteName}} del {{visitDate}}.\n\nLe tue visite sono in {{visitsLink}}.',
  ),
  email(
    'email.revisione-visita-da-correggere',
    'Resoconto da correggere: visita a {{siteName}}',
    '<p>Gentile {{firstName}},</p><p>lo staff ha esaminato il resoconto della visita al plesso <strong>{{siteName}}</strong> del {{visitDate}} e ti chiede di correggerlo:</p><blockquote style="white-space:pre-line">{{note}}</blockquote><p>Correggi il resoconto da <a href="{{visitsLink}}">{{visitsLink}}</a>: quando lo invii, torna in revisione.</p>',
    'Gentile {{firstName}},\n\nlo staff ha esaminato il resoconto della visita al plesso {{siteName}} del {{visitDate}} e ti chiede di correggerlo:\n\n{{note}}\n\nCorreggi il resoconto da {{visitsLink}}: quando lo invii, torna in revisione.',
  ),
  email(
    'email.revisione-visita-respinta',
    'Resoconto non accolto: visita a {{siteName}}',
    '<p>Gentile {{firstName}},</p><p>lo staff ha esaminato il resoconto della visita al plesso <strong>{{siteName}}</strong> del {{visitDate}} e non ha potuto accoglierlo, per questo motivo:</p><blockquote style="white-space:pre-line">{{note}}</blockquote><p>Le tue visite sono in <a href="{{visitsLink}}">{{visitsLink}}</a>.</p>',
    'Gentile {{firstName}},\n\nlo staff ha esaminato il resoconto della visita al plesso {{siteName}} del {{visitDate}} e non ha potuto accoglierlo, per questo motivo:\n\n{{note}}\n\nLe tue visite sono in {{visitsLink}}.',
  ),
] as const satisfies readonly TemplateDefinition[];

declare module '../messages/template-definition.ts' {
  interface TemplateKeys extends Record<(typeof REVIEWS_TEMPLATES)[number]['key'], true> {}
}
