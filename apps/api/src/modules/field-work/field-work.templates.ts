import { emailTemplate, type TemplateDefinition } from '../messages/index.ts';

const email = emailTemplate;

/**
 * Messages of field work (issue 39): visits handed to another detector (decision 061) and a report's
 * photo deleted by staff (decision 055). Placeholders are escaped in the HTML body.
 */
export const FIELD_WORK_TEMPLATES = [
  email(
    'email.visite-riassegnate-ad-altri',
    'Visite affidate a un altro rilevatore',
    '<p>Gentile {{firstName}},</p><p>lo staff ha affidato a un altro rilevatore queste visite pianificate che avevi in carico ({{count}}):</p><p style="white-space:pre-line">{{visitList}}</p><p>Se hai già scritto il resoconto di una di queste visite sul tuo dispositivo, invialo comunque: sarà conservato e lo staff deciderà quale versione tenere.</p><p>Le tue visite sono in <a href="{{visitsLink}}">{{visitsLink}}</a>.</p>',
    'Gentile {{firstName}},\n\nlo staff ha affidato a un altro rilevatore queste visite pianificate che avevi in carico ({{count}}):\n\n{{visitList}}\n\nSe hai già scritto il resoconto di una di queste visite sul tuo dispositivo, invialo comunque: sarà conservato e lo staff deciderà quale versione tenere.\n\nLe tue visite sono in {{visitsLink}}.',
  ),
  email(
    'email.visite-riassegnate-a-te',
    'Nuove visite affidate a te',
    '<p>Gentile {{firstName}},</p><p>lo staff ti ha affidato queste visite pianificate ({{count}}), insieme ai loro plessi:</p><p style="white-space:pre-line">{{visitList}}</p><p>Le trovi in <a href="{{visitsLink}}">{{visitsLink}}</a>.</p>',
    'Gentile {{firstName}},\n\nlo staff ti ha affidato queste visite pianificate ({{count}}), insieme ai loro plessi:\n\n{{visitList}}\n\nLe trovi in {{visitsLink}}.',
  ),
  email(
    'email.visita-foto-eliminata',
    'Foto eliminata: visita a {{siteName}}',
    '<p>Gentile {{firstName}},</p><p>lo staff ha eliminato la foto n. {{photoNumber}} del tuo resoconto della visita al plesso <strong>{{siteName}}</strong> del {{visitDate}}. Non serve inviarla di nuovo.</p><p>Le tue visite sono in <a href="{{visitsLink}}">{{visitsLink}}</a>.</p>',
    'Gentile {{firstName}},\n\nlo staff ha eliminato la foto n. {{photoNumber}} del tuo resoconto della visita al plesso {{siteName}} del {{visitDate}}. Non serve inviarla di nuovo.\n\nLe tue visite sono in {{visitsLink}}.',
  ),
] as const satisfies readonly TemplateDefinition[];

declare module '../messages/template-definition.ts' {
  interface TemplateKeys extends Record<(typeof FIELD_WORK_TEMPLATES)[number]['key'], true> {}
}
