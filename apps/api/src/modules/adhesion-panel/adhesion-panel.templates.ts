import type { TemplateDefinition } from '../messages/index.ts';

/** Messages of the adhesions panel (issue 9): reminders to institutes stuck in a state, withdrawal notice. */
export const ADHESION_PANEL_TEMPLATES = [
  {
    key: 'email.sollecito-adesione',
    channel: 'email',
    subject: 'Promemoria: adesione di {{instituteName}} al programma',
    htmlBody:
      '<p>Gentile {{firstName}},</p><p>l’istituto <strong>{{instituteName}}</strong> ({{ministryCode}}) è nello stato «{{stateLabel}}» dal {{since}}.</p><p>{{nextStep}}</p><p><a href="{{link}}">Apri l’adesione formale</a></p><p>Se avete già provveduto, ignorate questo messaggio. Per qualsiasi dubbio rispondete dal modulo contatti del portale.</p>',
    textBody:
      'Gentile {{firstName}},\n\nl’istituto {{instituteName}} ({{ministryCode}}) è nello stato «{{stateLabel}}» dal {{since}}.\n\n{{nextStep}}\n\nApri l’adesione formale: {{link}}\n\nSe avete già provveduto, ignorate questo messaggio. Per qualsiasi dubbio rispondete dal modulo contatti del portale.',
  },
  {
    key: 'email.adesione-ritirata',
    channel: 'email',
    subject: 'Adesione ritirata: {{instituteName}}',
    htmlBody:
      '<p>Gentile {{firstName}},</p><p>l’adesione dell’istituto <strong>{{instituteName}}</strong> ({{ministryCode}}) al programma è stata ritirata il {{when}}.</p><p>Motivo indicato: {{reason}}</p><p>I dati già raccolti restano conservati secondo l’informativa sulla privacy. Per riprendere la partecipazione scrivete dal modulo contatti del portale.</p>',
    textBody:
      'Gentile {{firstName}},\n\nl’adesione dell’istituto {{instituteName}} ({{ministryCode}}) al programma è stata ritirata il {{when}}.\n\nMotivo indicato: {{reason}}\n\nI dati già raccolti restano conservati secondo l’informativa sulla privacy. Per riprendere la partecipazione scrivete dal modulo contatti del portale.',
  },
] as const satisfies readonly TemplateDefinition[];

declare module '../messages/template-definition.ts' {
  interface TemplateKeys extends Record<(typeof ADHESION_PANEL_TEMPLATES)[number]['key'], true> {}
}
