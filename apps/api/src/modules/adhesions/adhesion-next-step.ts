// What the institute's people should do next, by adhesion state and role (the adhesion page and /portale).
import type { AdhesionNextStep, AdhesionViewerRole } from '@portale/shared/adhesions';
import type { AdhesionState } from '@portale/shared/registry';

const CONTACTS_LINK = { to: '/contatti', label: 'Contatta il gruppo di lavoro' };
const ADHESION_LINK = { to: '/iscrizioni/adesione-formale', label: "Vai all'adesione formale" };

/** What the institute's people should do next, by state and role. */
export function nextStepOf(state: AdhesionState, role: AdhesionViewerRole): AdhesionNextStep {
  const principal = role === 'principal';
  switch (state) {
    case 'nessuna':
      return {
        code: 'enrol',
        message: "L'istituto non è ancora iscritto al programma: completa l'iscrizione.",
        link: { to: '/iscrizioni/iscrizione', label: "Iscrivi l'istituto" },
      };
    case 'iscritto':
      return principal
        ? {
            code: 'sign',
            message:
              'Rileggi il documento di adesione e firmalo: online con un codice via SMS o caricando il file firmato digitalmente.',
            link: ADHESION_LINK,
          }
        : {
            code: 'wait-principal',
            message:
              'Rileggi il documento di adesione: lo firmerà il dirigente scolastico, online o con firma digitale.',
            link: ADHESION_LINK,
          };
    case 'da_correggere':
      return principal
        ? {
            code: 'fix-and-sign',
            message:
              'Lo staff ha chiesto correzioni: leggi la nota, rileggi il documento aggiornato e firmalo di nuovo.',
            link: ADHESION_LINK,
          }
        : {
            code: 'wait-principal-fix',
            message:
              'Lo staff ha chiesto correzioni: leggi la nota; il dirigente scolastico dovrà firmare di nuovo il documento.',
            link: ADHESION_LINK,
          };
    case 'adesione_firmata':
      return {
        code: 'wait-review',
        message:
          "L'adesione è firmata ed è in revisione da parte dello staff: riceverai un'e-mail con l'esito.",
        link: null,
      };
    case 'attivo':
      return {
        code: 'active',
        message: "L'adesione è stata approvata: l'istituto partecipa al programma.",
        link: null,
      };
    case 'respinto':
      return {
        code: 'rejected',
        message: "L'adesione è stata respinta. Per chiarimenti scrivi al gruppo di lavoro.",
        link: CONTACTS_LINK,
      };
    case 'ritirato':
      return {
        code: 'withdrawn',
        message: "L'istituto ha ritirato l'adesione al programma.",
        link: CONTACTS_LINK,
      };
  }
}
