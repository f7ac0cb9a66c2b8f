/**
 * The programme's public and legal data, in one place for the web pages, the footer and the PDFs.
 * The partners' company data must be confirmed by Sylla and Cromos before going live.
 */
export const PROGRAMME = {
  name: 'Portale Scuole',
  fullName: 'Programma nazionale di indagine nelle scuole italiane',
  startYear: 2025,
  controller: {
    name: 'Sylla S.r.l.',
    role: 'titolare del trattamento e capofila del programma',
    address: 'Via dei Mille 24, 00185 Roma',
    vatNumber: '12345670018',
    certifiedEmail: 'sylla@pec.sylla.example.it',
  },
  partner: {
    name: 'Cromos Società Cooperativa',
    role: 'partner operativo e responsabile del trattamento',
    address: 'Corso Buenos Aires 92, 20124 Milano',
    vatNumber: '09876540157',
  },
  contacts: {
    email: 'info@portale-scuole.example.it',
    privacyEmail: 'privacy@portale-scuole.example.it',
    dpoEmail: 'dpo@portale-scuole.example.it',
    accessibilityEmail: 'accessibilita@portale-scuole.example.it',
    phone: '+39 06 1234 5678',
    phoneHours: 'dal lunedì al venerdì, dalle 9:30 alle 13:00 e dalle 14:30 alle 17:00',
  },
  offices: [
    {
      city: 'Roma',
      label: 'Sede di Roma (Sylla)',
      address: 'Via dei Mille 24, 00185 Roma',
      hours: 'su appuntamento',
    },
    {
      city: 'Milano',
      label: 'Sede di Milano (Cromos)',
      address: 'Corso Buenos Aires 92, 20124 Milano',
      hours: 'su appuntamento',
    },
  ],
} as const;

/** Version of the privacy and cookie policy; a new version asks every visitor for a new choice. */
export const POLICY_VERSION = '2026-01';
