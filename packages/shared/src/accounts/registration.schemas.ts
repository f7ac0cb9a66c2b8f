import { z } from 'zod';
import { isPlainName, PERSON_NAME_CONTROL_MESSAGE } from '../validation/index.ts';
import { isCertifiedEmail, normalizeMobilePhone } from './contacts.ts';
import { isValidTaxCode, normalizeTaxCode } from './tax-code.ts';

/** The landing a registration comes from (`/landing/registrazioni/{kind}`). */
export const TEACHER_KINDS = ['insegnante', 'educatore', 'altro'] as const;
export type TeacherKind = (typeof TEACHER_KINDS)[number];
export const REVIEW_STATES = ['in_attesa', 'approvata', 'da_correggere', 'respinta'] as const;

export const REGISTRATION_MESSAGES = {
  pec: 'Gli indirizzi PEC non possono ricevere le nostre e-mail: indica un indirizzo e-mail personale ordinario.',
  phone: 'Inserisci un numero di cellulare valido (per i numeri esteri aggiungi il prefisso internazionale).',
  taxCode: 'Il codice fiscale non è valido: controlla lettere e cifre.',
  taxCodeRequired: 'Inserisci il codice fiscale.',
  schoolSiteRequired: 'Scegli il plesso in cui lavori.',
  subjectsRequired: 'Indica almeno una materia o un ruolo.',
  privacy: 'Per registrarti devi dichiarare di aver letto l’informativa sulla privacy.',
  accepted:
    'Registrazione ricevuta. Ti abbiamo inviato un’e-mail: apri il collegamento che contiene per confermare l’indirizzo (vale 24 ore), poi accedi al portale.',
} as const;

export const PersonNameSchema = z
  .string()
  .refine(isPlainName, PERSON_NAME_CONTROL_MESSAGE)
  .transform((v) => v.trim())
  .pipe(z.string().min(1, 'Campo obbligatorio.').max(100, 'Al massimo 100 caratteri.'));

export const PersonalEmailSchema = z
  .string({ error: 'Inserisci l’indirizzo e-mail.' })
  .trim()
  .toLowerCase()
  .max(254, 'Indirizzo troppo lungo.')
  .email('Inserisci un indirizzo e-mail valido.')
  .refine((email) => !isCertifiedEmail(email), REGISTRATION_MESSAGES.pec);

/** A mobile phone, turned into E.164 (Italian by default). */
export const MobilePhoneSchema = z
  .string({ error: 'Inserisci il numero di cellulare.' })
  .max(30, REGISTRATION_MESSAGES.phone)
  .transform((value, ctx) => {
    const e164 = normalizeMobilePhone(value);
    if (!e164) {
      ctx.addIssue({ code: 'custom', message: REGISTRATION_MESSAGES.phone });
      return z.NEVER;
    }
    return e164;
  });

export const TaxCodeSchema = z
  .string()
  .max(20, REGISTRATION_MESSAGES.taxCode)
  .transform(normalizeTaxCode)
  .refine(isValidTaxCode, REGISTRATION_MESSAGES.taxCode);

export const SubjectsSchema = z.array(z.string().trim().min(1).max(80)).max(20, 'Al massimo 20 voci.');

/** The one answer of a registration, also for an address already registered (no enumeration). */
export const RegistrationAcceptedSchema = z.object({ status: z.literal('accepted'), message: z.string() });

export const SchoolSiteSearchQuerySchema = z.object({
  q: z.string().trim().min(2, 'Scrivi almeno 2 caratteri.').max(100),
});

export const SchoolSiteOptionSchema = z.object({
  id: z.number().int(),
  ministryCode: z.string(),
  name: z.string(),
  municipalityName: z.string(),
  province: z.string(),
  schoolLevel: z.string(),
  instituteName: z.string(),
});
export type SchoolSiteOption = z.infer<typeof SchoolSiteOptionSchema>;
export const SchoolSiteSearchResponseSchema = z.object({ items: z.array(SchoolSiteOptionSchema) });
