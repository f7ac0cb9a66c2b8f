import { z } from 'zod';
import {
  MobilePhoneSchema,
  PersonalEmailSchema,
  PersonNameSchema,
  TaxCodeSchema,
} from '../accounts/registration.schemas.ts';
import {
  listResponseSchema,
  optionalEnum,
  PaginationSchema,
  QueryBooleanSchema,
  SearchTextSchema,
  sortSchema,
} from '../lists/list-query.ts';
import { ADHESION_STATES, SCHOOL_LEVELS } from '../registry/registry.constants.ts';

/** Italian texts of the enrolment (`/iscrizioni/iscrizione`), shared by the API and the page. */
export const ENROLMENT_MESSAGES = {
  verificationInvalid: 'La verifica del cellulare non è valida: ripeti la verifica del numero.',
  verificationUnverified:
    'Il numero di cellulare non è ancora stato verificato: inserisci il codice ricevuto via SMS.',
  verificationExpired: 'La verifica del cellulare è scaduta (vale 60 minuti): ripeti la verifica del numero.',
  verificationUsed:
    'Questa verifica del cellulare è già stata usata per un’altra iscrizione: ripeti la verifica del numero.',
  instituteNotFound: 'Istituto non trovato: cercalo di nuovo nell’anagrafe.',
  alreadyEnrolled: (code: string) =>
    `L’istituto ${code} è già iscritto al programma: non è possibile iscriverlo di nuovo.`,
  schoolSitesRequired: 'Scegli almeno un plesso che partecipa al programma.',
  schoolSiteForeign:
    'Uno dei plessi scelti non appartiene all’istituto: ricarica la pagina e scegli di nuovo.',
  privacy: 'Per iscrivere l’istituto devi dichiarare di aver letto l’informativa sulla privacy.',
  taxCodeRequired: 'Inserisci il codice fiscale.',
  identityExpired:
    'L’identità verificata con SPID o CIE è scaduta (vale 15 minuti): accedi di nuovo con SPID o CIE, oppure iscrivi la scuola inserendo i dati a mano.',
  sameEmailDifferentPerson:
    'Dirigente e referente hanno lo stesso indirizzo e-mail: se sono la stessa persona spunta «Il referente è il dirigente».',
  accepted:
    'Iscrizione completata. Il dirigente scolastico e il referente ricevono un’e-mail: chi non ha ancora un account sceglie la password dal collegamento (vale 7 giorni), chi ha già un account accede al portale e accetta l’invito; il dirigente, dopo l’accesso, firma il documento di adesione formale.',
} as const;

/** How long a verified phone may be used for an enrolment. */
export const ENROLMENT_VERIFICATION_MAX_AGE_MINUTES = 60;

/** The principal or the first contact, as the enrolment form gives them. */
export const EnrolmentPersonSchema = z.object({
  firstName: PersonNameSchema,
  lastName: PersonNameSchema,
  email: PersonalEmailSchema,
  taxCode: z
    .string({ error: ENROLMENT_MESSAGES.taxCodeRequired })
    .min(1, ENROLMENT_MESSAGES.taxCodeRequired)
    .pipe(TaxCodeSchema),
  phone: MobilePhoneSchema,
});
export type EnrolmentPerson = z.output<typeof EnrolmentPersonSchema>;

export const EnrolmentBodySchema = z
  .object({
    verificationId: z
      .string({ error: ENROLMENT_MESSAGES.verificationInvalid })
      .uuid(ENROLMENT_MESSAGES.verificationInvalid),
    instituteId: z.number({ error: 'Scegli l’istituto.' }).int().positive('Scegli l’istituto.'),
    principal: EnrolmentPersonSchema,
    /** `null`: the principal is also the first contact. */
    firstContact: EnrolmentPersonSchema.nullable(),
    schoolSiteIds: z
      .array(z.number().int().positive(), { error: ENROLMENT_MESSAGES.schoolSitesRequired })
      .min(1, ENROLMENT_MESSAGES.schoolSitesRequired)
      .max(500)
      .transform((ids) => [...new Set(ids)]),
    privacyAccepted: z.literal(true, { error: ENROLMENT_MESSAGES.privacy }),
    /**
     * After a login with SPID/CIE that found no account (decision 054): which of the two people the
     * applicant is. Their name, surname and codice fiscale are then the provider's (the browser's
     * pending identity), and their new account is linked to the identity.
     */
    verifiedPerson: z.enum(['principal', 'firstContact']).optional(),
  })
  .superRefine((value, ctx) => {
    const contact = value.firstContact;
    if (contact && contact.email === value.principal.email && contact.taxCode !== value.principal.taxCode) {
      ctx.addIssue({
        code: 'custom',
        path: ['firstContact', 'email'],
        message: ENROLMENT_MESSAGES.sameEmailDifferentPerson,
      });
    }
  });
export type EnrolmentBody = z.input<typeof EnrolmentBodySchema>;

export const EnrolmentCreatedSchema = z.object({
  enrolmentId: z.number().int(),
  instituteId: z.number().int(),
  ministryCode: z.string(),
  instituteName: z.string(),
  principalEmail: z.string(),
  firstContactEmail: z.string(),
  schoolSiteCount: z.number().int(),
  message: z.string(),
});
export type EnrolmentCreated = z.infer<typeof EnrolmentCreatedSchema>;

/** The institute search of the enrolment: codice meccanografico or words of the name or comune. */
export const EnrolmentInstituteSearchQuerySchema = z.object({
  q: z
    .string({ error: 'Scrivi il codice meccanografico o il nome dell’istituto.' })
    .trim()
    .min(2, 'Scrivi almeno 2 caratteri.')
    .max(100, 'Al massimo 100 caratteri.'),
});

export const EnrolmentInstituteOptionSchema = z.object({
  id: z.number().int(),
  ministryCode: z.string(),
  name: z.string(),
  type: z.string(),
  municipalityName: z.string(),
  province: z.string(),
  adhesionState: z.enum(ADHESION_STATES),
  /** Only an institute in state `nessuna` may enrol. */
  enrollable: z.boolean(),
});
export type EnrolmentInstituteOption = z.infer<typeof EnrolmentInstituteOptionSchema>;
export const EnrolmentInstituteSearchResponseSchema = z.object({
  items: z.array(EnrolmentInstituteOptionSchema),
});

export const EnrolmentSchoolSiteSchema = z.object({
  id: z.number().int(),
  ministryCode: z.string(),
  name: z.string(),
  schoolLevel: z.enum(SCHOOL_LEVELS),
  municipalityName: z.string(),
  address: z.string().nullable(),
});
export type EnrolmentSchoolSite = z.infer<typeof EnrolmentSchoolSiteSchema>;

/** One institute with its plessi, to choose the participating ones. */
export const EnrolmentInstituteSchema = EnrolmentInstituteOptionSchema.extend({
  address: z.string().nullable(),
  schoolSites: z.array(EnrolmentSchoolSiteSchema),
});
export type EnrolmentInstitute = z.infer<typeof EnrolmentInstituteSchema>;

export const VERIFICATION_USABILITY = ['usable', 'unverified', 'expired', 'used', 'invalid'] as const;
export type VerificationUsability = (typeof VERIFICATION_USABILITY)[number];

/** Whether a phone verification can still start an enrolment, and until when. */
export const EnrolmentVerificationSchema = z.object({
  status: z.enum(VERIFICATION_USABILITY),
  message: z.string(),
  phoneMasked: z.string().nullable(),
  usableUntil: z.string().nullable(),
});
export type EnrolmentVerification = z.infer<typeof EnrolmentVerificationSchema>;

/**
 * The invitation of an existing account named in an enrolment (issue 32): the account gets the role
 * only when its owner, signed in, accepts and the codice fiscale typed in the enrolment is theirs.
 */
export const ENROLMENT_INVITATION_STATES = ['in_attesa', 'accettato', 'rifiutato', 'annullato'] as const;
export type EnrolmentInvitationState = (typeof ENROLMENT_INVITATION_STATES)[number];
export const ENROLMENT_INVITATION_STATE_LABELS: Record<EnrolmentInvitationState, string> = {
  in_attesa: 'In attesa',
  accettato: 'Accettato',
  rifiutato: 'Rifiutato',
  annullato: 'Annullato',
};
export const ENROLMENT_INVITATION_ROLES = ['school.principal', 'institute.first-contact'] as const;
export type EnrolmentInvitationRole = (typeof ENROLMENT_INVITATION_ROLES)[number];
/** `iscrizione`: named by an enrolment (issue 32); `passaggio`: replaces the institute's principal or first contact (decision 047). */
export const ENROLMENT_INVITATION_KINDS = ['iscrizione', 'passaggio'] as const;
export type EnrolmentInvitationKind = (typeof ENROLMENT_INVITATION_KINDS)[number];
/** How long an invitation may be accepted. */
export const ENROLMENT_INVITATION_TTL_DAYS = 30;

export const ENROLMENT_INVITATION_MESSAGES = {
  notFound: 'Invito non trovato.',
  notYours: 'Questo invito è rivolto a un altro account.',
  decided: 'Hai già risposto a questo invito.',
  expired: 'L’invito è scaduto: chiedi a chi ha iscritto l’istituto di scrivere allo staff del portale.',
  taxCodeMismatch:
    'Il codice fiscale indicato nell’iscrizione non corrisponde a quello del tuo account: l’invito non può essere accettato. Se il codice fiscale del tuo profilo è sbagliato, correggilo e riprova; altrimenti rifiuta l’invito.',
  staffAccount:
    'Un account del personale del programma non può diventare dirigente o referente di un istituto: rifiuta l’invito.',
  roleTaken:
    'L’istituto ha già un dirigente o un referente collegato: l’invito non può più essere accettato.',
  instituteClosed:
    'L’adesione dell’istituto è stata respinta o ritirata: l’invito non può più essere accettato.',
  accepted: 'Invito accettato: ora il tuo account è collegato all’istituto.',
  declined: 'Invito rifiutato: il tuo account non è stato collegato all’istituto.',
  cancelled: 'L’invito è stato annullato dallo staff del portale: non può più essere accettato.',
  notPending:
    'L’invito non è più in attesa (accettato, rifiutato o annullato): non si può inviare di nuovo né annullare.',
  resent: (email: string) =>
    `Invito inviato di nuovo a ${email}: vale altri ${ENROLMENT_INVITATION_TTL_DAYS} giorni.`,
  cancelledByStaff:
    'Invito annullato: la persona non può più accettarlo e il suo account non è stato collegato all’istituto.',
} as const;

export const EnrolmentInvitationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(ENROLMENT_INVITATION_KINDS),
  instituteId: z.number().int(),
  ministryCode: z.string(),
  instituteName: z.string(),
  roles: z.array(z.enum(ENROLMENT_INVITATION_ROLES)),
  state: z.enum(ENROLMENT_INVITATION_STATES),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type EnrolmentInvitation = z.infer<typeof EnrolmentInvitationSchema>;
export const EnrolmentInvitationListSchema = z.object({ items: z.array(EnrolmentInvitationSchema) });
export const EnrolmentInvitationDecisionSchema = z.object({
  invitation: EnrolmentInvitationSchema,
  message: z.string(),
});

// --- Staff: the invitations of every enrolment (issue 32) ---

/** One invitation as staff see it: the institute, the invited account and where the invitation stands. */
export const StaffEnrolmentInvitationSchema = EnrolmentInvitationSchema.extend({
  userId: z.number().int(),
  inviteeName: z.string(),
  inviteeEmail: z.string(),
  /** Pending and past its date: it can no longer be accepted until it is sent again. */
  expired: z.boolean(),
  decidedAt: z.string().nullable(),
});
export type StaffEnrolmentInvitation = z.infer<typeof StaffEnrolmentInvitationSchema>;

export const STAFF_INVITATION_SORTS = [
  'createdAt',
  'expiresAt',
  'instituteName',
  'inviteeName',
  'state',
] as const;
export const StaffInvitationFiltersSchema = z.object({
  q: SearchTextSchema,
  state: optionalEnum(ENROLMENT_INVITATION_STATES, 'Stato'),
  expired: QueryBooleanSchema,
  sort: sortSchema(STAFF_INVITATION_SORTS),
});
export type StaffInvitationFilters = z.output<typeof StaffInvitationFiltersSchema>;
export const StaffInvitationListQuerySchema = StaffInvitationFiltersSchema.extend(PaginationSchema.shape);
export type StaffInvitationListQuery = z.output<typeof StaffInvitationListQuerySchema>;
export const StaffInvitationListResponseSchema = listResponseSchema(StaffEnrolmentInvitationSchema);
export const STAFF_INVITATION_FILTER_KEYS = ['q', 'state', 'expired'] as const;

/** The answer of a resend or a cancellation: the invitation as it is now and the Italian outcome. */
export const StaffInvitationActionResultSchema = z.object({
  invitation: StaffEnrolmentInvitationSchema,
  message: z.string(),
});

// --- Handovers: a new principal or first contact replaces the holder (decision 047) ---

export const HANDOVER_ROLE_LABELS: Record<EnrolmentInvitationRole, string> = {
  'school.principal': 'Dirigente scolastico',
  'institute.first-contact': 'Referente per il programma',
};

export const HANDOVER_MESSAGES = {
  roleRequired: 'Scegli il ruolo da passare: dirigente scolastico o referente.',
  currentHolder: 'Questa persona ricopre già il ruolo nell’istituto: indica la persona che la sostituisce.',
  staffAccount:
    'L’indirizzo appartiene a un account del personale del programma, che non può diventare dirigente o referente di un istituto.',
  taxCodeMismatch:
    'Il codice fiscale non corrisponde a quello dell’account con questo indirizzo e-mail: controlla i dati.',
  principalOnlyForContact:
    'Il dirigente scolastico può indicare solo un nuovo referente; per un nuovo dirigente scrivi allo staff del portale.',
  instituteClosed:
    'L’adesione dell’istituto è stata respinta o ritirata: non si può indicare un nuovo dirigente o referente.',
  notEnrolled:
    'L’istituto non è iscritto al programma: il dirigente e il referente si indicano con l’iscrizione.',
  notFound: 'Invito non trovato per questo istituto.',
  created: (email: string, days: number) =>
    `Invito inviato a ${email}: vale ${days} giorni. Chi ricopre ora il ruolo resta collegato all’istituto fino all’accettazione.`,
  cancelled: 'Invito annullato: la persona non può più accettarlo.',
  notPending: 'L’invito non è più in attesa (accettato, rifiutato o annullato).',
} as const;

/** Who replaces the principal or the first contact: the invited person (no phone: they add it when they complete the registration). */
export const HandoverBodySchema = z.object({
  role: z.enum(ENROLMENT_INVITATION_ROLES, { error: HANDOVER_MESSAGES.roleRequired }),
  firstName: PersonNameSchema,
  lastName: PersonNameSchema,
  email: PersonalEmailSchema,
  taxCode: z
    .string({ error: ENROLMENT_MESSAGES.taxCodeRequired })
    .min(1, ENROLMENT_MESSAGES.taxCodeRequired)
    .pipe(TaxCodeSchema),
});
export type HandoverBody = z.input<typeof HandoverBodySchema>;

/** A handover invitation as the institute's page shows it. */
export const HandoverInvitationSchema = z.object({
  id: z.number().int(),
  role: z.enum(ENROLMENT_INVITATION_ROLES),
  inviteeName: z.string(),
  inviteeEmail: z.string(),
  state: z.enum(ENROLMENT_INVITATION_STATES),
  /** Pending and past its date: it can no longer be accepted. */
  expired: z.boolean(),
  invitedBy: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type HandoverInvitation = z.infer<typeof HandoverInvitationSchema>;

export const HandoverListSchema = z.object({
  /** Newest first: the pending ones and the last decided (at most 20). */
  items: z.array(HandoverInvitationSchema),
});

export const HandoverResultSchema = z.object({
  invitation: HandoverInvitationSchema,
  message: z.string(),
});
