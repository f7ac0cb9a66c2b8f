import type { TemplateDefinition } from '../messages/index.ts';

/**
 * The formal adhesion document (channel `pdf`). `textBody` is rendered with pdf-lib: a line starting
 * with `## ` is a heading, every other non-empty line a paragraph (`- ` a bullet). `{{schoolSites}}`
 * expands to one bullet per participating plesso.
 */
const ADHESION_DOCUMENT = [
  '## Istituzione scolastica',
  'Denominazione: {{instituteName}}',
  'Codice meccanografico: {{ministryCode}}',
  'Sede: {{address}}, {{municipality}} ({{province}}), {{region}}',
  'Posta elettronica certificata (PEC): {{certifiedEmail}}',
  '## Dichiarazione di adesione',
  'Il/La sottoscritto/a {{principalName}}, codice fiscale {{principalTaxCode}}, in qualità di dirigente scolastico e legale rappresentante dell’istituzione scolastica sopra indicata,',
  'DICHIARA',
  'di aderire, per conto dell’istituzione scolastica, al programma nazionale pluriennale di indagine sulle scuole italiane promosso attraverso il Portale Scuole e condotto, per le attività operative, dai soggetti attuatori Sylla e Cromos.',
  '## Impegni dell’istituzione scolastica',
  'Con la presente adesione l’istituzione scolastica si impegna a:',
  '- consentire ai rilevatori incaricati dal programma l’accesso ai plessi partecipanti, nei giorni e negli orari concordati con il referente d’istituto;',
  '- favorire la partecipazione di insegnanti ed educatori alle attività di indagine, che resta in ogni caso volontaria;',
  '- diffondere al personale e alle famiglie l’informativa sul trattamento dei dati personali predisposta dal programma;',
  '- comunicare tempestivamente, tramite il portale, le variazioni dei dati dell’istituto, dei plessi e dei referenti.',
  '## Referente d’istituto',
  'Il dirigente scolastico individua quale referente d’istituto per il programma: {{firstContactName}}.',
  '## Plessi partecipanti',
  '{{schoolSites}}',
  '## Trattamento dei dati personali',
  'I dati personali raccolti nell’ambito del programma sono trattati nel rispetto del Regolamento (UE) 2016/679 e del D.Lgs. 196/2003, esclusivamente per le finalità di indagine e per il tempo strettamente necessario. I risultati sono pubblicati solo in forma aggregata, senza mai mostrare gruppi inferiori a cinque rispondenti.',
  '## Durata e ritiro',
  'L’adesione vale per l’intera durata del programma. L’istituzione scolastica può ritirarla in qualsiasi momento tramite il portale, indicandone il motivo; il ritiro non riguarda le attività già svolte.',
  '## Sottoscrizione',
  'Documento generato dal Portale Scuole il {{date}}. Il dirigente scolastico lo sottoscrive online, con codice di conferma inviato via SMS al proprio numero di cellulare, oppure con firma digitale qualificata (PAdES o CAdES). L’impronta SHA-256 del documento è registrata con la firma.',
].join('\n');

/** Messages and documents of the onboarding issue (9): adhesions. */
export const ADHESIONS_TEMPLATES = [
  {
    key: 'documento.adesione',
    channel: 'pdf',
    subject: 'Adesione formale al programma nazionale di indagine sulle scuole',
    htmlBody: null,
    textBody: ADHESION_DOCUMENT,
  },
  {
    key: 'sms.firma-adesione',
    channel: 'sms',
    subject: null,
    htmlBody: null,
    textBody:
      'Portale Scuole: il codice per firmare l’adesione di {{ministryCode}} è {{code}}. Vale 10 minuti. Non comunicarlo a nessuno.',
  },
  {
    key: 'email.adesione-firmata',
    channel: 'email',
    subject: 'Adesione formale firmata: {{instituteName}}',
    htmlBody:
      '<p>Gentile {{firstName}},</p><p>hai firmato il {{signedAt}} l’adesione formale di <strong>{{instituteName}}</strong> ({{ministryCode}}) al programma ({{methodLabel}}).</p><p>Impronta SHA-256 del documento firmato: <code>{{documentSha256}}</code></p><p>Lo staff del programma esaminerà l’adesione; riceverai un’e-mail con l’esito. Puoi seguire lo stato dal <a href="{{portalLink}}">portale</a>.</p>',
    textBody:
      'Gentile {{firstName}},\n\nhai firmato il {{signedAt}} l’adesione formale di {{instituteName}} ({{ministryCode}}) al programma ({{methodLabel}}).\n\nImpronta SHA-256 del documento firmato: {{documentSha256}}\n\nLo staff del programma esaminerà l’adesione; riceverai un’e-mail con l’esito. Puoi seguire lo stato dal portale: {{portalLink}}',
  },
  {
    key: 'email.adesione-firmata-referente',
    channel: 'email',
    subject: 'Il dirigente ha firmato l’adesione di {{instituteName}}',
    htmlBody:
      '<p>Gentile {{firstName}},</p><p>il dirigente scolastico {{principalName}} ha firmato il {{signedAt}} l’adesione formale di <strong>{{instituteName}}</strong> ({{ministryCode}}) al programma.</p><p>L’adesione è ora in revisione da parte dello staff. Puoi seguirne lo stato dal <a href="{{portalLink}}">portale</a>.</p>',
    textBody:
      'Gentile {{firstName}},\n\nil dirigente scolastico {{principalName}} ha firmato il {{signedAt}} l’adesione formale di {{instituteName}} ({{ministryCode}}) al programma.\n\nL’adesione è ora in revisione da parte dello staff. Puoi seguirne lo stato dal portale: {{portalLink}}',
  },
] as const satisfies readonly TemplateDefinition[];

declare module '../messages/template-definition.ts' {
  interface TemplateKeys extends Record<(typeof ADHESIONS_TEMPLATES)[number]['key'], true> {}
}
