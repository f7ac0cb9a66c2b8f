import { z } from 'zod';
import { ADHESION_STATES, SCHOOL_LEVELS, TEACHER_REVIEW_STATES } from '../registry/registry.constants.ts';
import { REVIEW_FIELDS } from '../vocabulary/review.constants.ts';
import { IDENTITY_PROVIDER_NAMES } from '../identity/identity.schemas.ts';
import { SIGNATURE_FORMAT_DETAILS, SIGNATURE_METHODS } from './adhesion.constants.ts';

const isoDateTime = z.string();

/** A SHA-256 in lowercase hex: what the principal saw and signs. */
export const Sha256Schema = z
  .string({ error: 'Manca l’impronta (SHA-256) del documento.' })
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{64}$/, 'L’impronta del documento non è valida: ricarica la pagina e riprova.');

/** Who the signed-in user is for the institute: the principal signs, the first contact prepares. */
export const ADHESION_VIEWER_ROLES = ['principal', 'first-contact'] as const;
export type AdhesionViewerRole = (typeof ADHESION_VIEWER_ROLES)[number];

/** What the institute's people should do next, by adhesion state and role. */
export const ADHESION_NEXT_STEPS = [
  'enrol',
  'sign',
  'wait-principal',
  'fix-and-sign',
  'wait-principal-fix',
  'wait-review',
  'active',
  'rejected',
  'withdrawn',
] as const;
export type AdhesionNextStepCode = (typeof ADHESION_NEXT_STEPS)[number];

export const AdhesionNextStepSchema = z.object({
  code: z.enum(ADHESION_NEXT_STEPS),
  message: z.string(),
  /** Where to act, when there is a page for it. */
  link: z.object({ to: z.string(), label: z.string() }).nullable(),
});
export type AdhesionNextStep = z.infer<typeof AdhesionNextStepSchema>;

const AdhesionPersonSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  taxCode: z.string().nullable(),
  /** How the portal knows the codice fiscale is this person's: proved with CIE/SPID, or null (typed by them). */
  taxCodeVerifiedBy: z.enum(IDENTITY_PROVIDER_NAMES).nullable(),
  taxCodeVerifiedAt: z.string().nullable(),
});

export const AdhesionSchoolSiteSchema = z.object({
  id: z.number().int(),
  ministryCode: z.string(),
  name: z.string(),
  schoolLevel: z.enum(SCHOOL_LEVELS),
  municipalityName: z.string(),
  province: z.string(),
});

/** The institute data that go into the adhesion document. */
export const AdhesionInstituteSchema = z.object({
  id: z.number().int(),
  ministryCode: z.string(),
  name: z.string(),
  address: z.string().nullable(),
  postalCode: z.string().nullable(),
  municipalityName: z.string(),
  province: z.string(),
  region: z.string(),
  certifiedEmail: z.string().nullable(),
  adhesionState: z.enum(ADHESION_STATES),
  adhesionStateChangedAt: isoDateTime.nullable(),
  principal: AdhesionPersonSchema.nullable(),
  firstContact: AdhesionPersonSchema.nullable(),
  /** The participating plessi, listed in the document. */
  schoolSites: z.array(AdhesionSchoolSiteSchema),
});
export type AdhesionInstitute = z.infer<typeof AdhesionInstituteSchema>;

export const AdhesionDocumentMetaSchema = z.object({
  id: z.number().int(),
  version: z.number().int(),
  sha256: z.string(),
  sizeBytes: z.number().int(),
  templateVersion: z.number().int(),
  createdAt: isoDateTime,
});
export type AdhesionDocumentMeta = z.infer<typeof AdhesionDocumentMetaSchema>;

/**
 * What the portal verified about one uploaded signature (decision 032): kept with it as evidence and
 * downloadable by reviewers, one per version.
 */
export const SignatureVerificationReportSchema = z.object({
  format: z.enum(['pades', 'cades']),
  /** What exactly the file is (SIGNATURE_FORMAT_LABELS). */
  formatDetail: z.enum(SIGNATURE_FORMAT_DETAILS),
  /** The PDF signature dictionary's /SubFilter (PAdES only). */
  subFilter: z.string().nullable(),
  verifiedAt: isoDateTime,
  signer: z.object({ name: z.string(), taxCode: z.string().nullable() }),
  /**
   * The principal's codice fiscale the certificate was checked against, and whether the portal had it
   * proved by CIE/SPID (null: typed by the principal). Absent in reports made before 2026-11-29.
   */
  expectedSigner: z
    .object({ taxCode: z.string(), verifiedBy: z.enum(IDENTITY_PROVIDER_NAMES).nullable() })
    .optional(),
  certificate: z.object({
    subject: z.string(),
    issuer: z.string(),
    serialNumber: z.string(),
    notBefore: isoDateTime,
    notAfter: isoDateTime,
  }),
  qualified: z.object({
    trustService: z.object({
      provider: z.string(),
      name: z.string(),
      type: z.string(),
      status: z.string(),
      statusSince: isoDateTime,
    }),
    qcStatements: z.array(z.string()),
    /** Subjects from the signer to the listed CA. */
    chain: z.array(z.string()),
  }),
  trustedList: z.object({
    territory: z.string(),
    operator: z.string(),
    sequenceNumber: z.number().int(),
    issuedAt: isoDateTime,
    nextUpdate: isoDateTime.nullable(),
    sha256: z.string(),
    source: z.string(),
  }),
  /** The time every check was made at and its source: a qualified RFC 3161 time-stamp on the signature (with its authority) or else the server's receipt. */
  trustedTime: z.object({
    at: isoDateTime,
    source: z.enum(['receipt', 'timestamp']),
    authority: z.string().optional(),
  }),
  /** The signingTime the signer's computer declared: shown, never relied on. */
  declaredSigningTime: isoDateTime.nullable(),
  /** The issuing CA's answer at the trusted time (OCSP or CRL), its DER base64 as evidence. */
  revocation: z.object({
    status: z.literal('good'),
    source: z.enum(['ocsp', 'crl']),
    url: z.string(),
    producedAt: isoDateTime,
    nextUpdate: isoDateTime.nullable(),
    evidence: z.string(),
  }),
});
export type SignatureVerificationReport = z.infer<typeof SignatureVerificationReportSchema>;

export const AdhesionSignatureSchema = z.object({
  id: z.number().int(),
  method: z.enum(SIGNATURE_METHODS),
  signerName: z.string(),
  signerTaxCode: z.string().nullable(),
  signedAt: isoDateTime,
  documentSha256: z.string(),
  documentVersion: z.number().int(),
  signedFileName: z.string().nullable(),
  certificateSubject: z.string().nullable(),
});
export type AdhesionSignature = z.infer<typeof AdhesionSignatureSchema>;

/** Why the principal cannot sign in one of the two ways (shown next to it). */
export const AdhesionSignBlockersSchema = z.object({
  online: z.string().nullable(),
  upload: z.string().nullable(),
});

/** `GET /api/adhesions/current`: the adhesion of the institute of the signed-in principal or first contact. */
export const CurrentAdhesionSchema = z.object({
  viewerRole: z.enum(ADHESION_VIEWER_ROLES),
  institute: AdhesionInstituteSchema,
  /** The current version of the document (generated from the institute data while it may be signed). */
  document: AdhesionDocumentMetaSchema.nullable(),
  lastSignature: AdhesionSignatureSchema.nullable(),
  nextStep: AdhesionNextStepSchema,
  /** Every institute the caller holds as principal or first contact, to choose among (issue 35, item 1). */
  institutes: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      ministryCode: z.string(),
      adhesionState: z.enum(ADHESION_STATES),
      viewerRole: z.enum(ADHESION_VIEWER_ROLES),
    }),
  ),
  /** The reviewer's note when the staff asked for corrections. */
  reviewNote: z
    .object({
      note: z.string(),
      decidedAt: isoDateTime,
      /** The fields the reviewer flagged (empty when the note alone says what is wrong). */
      fields: z.array(z.enum(REVIEW_FIELDS)),
    })
    .nullable(),
  /**
   * Sent back for corrections (`da_correggere`): every plesso of the institute with whether it
   * participates, for the principal or first contact to correct; null in any other state.
   */
  correctableSchoolSites: z
    .array(
      z.object({
        id: z.number().int(),
        ministryCode: z.string(),
        name: z.string(),
        municipalityName: z.string(),
        participating: z.boolean(),
      }),
    )
    .nullable(),
  /** May the document be (re)generated now (state `iscritto` or `da_correggere`)? */
  canPrepare: z.boolean(),
  /** May this user sign now (the principal, in a state that accepts a signature, with a document)? */
  canSign: z.boolean(),
  signBlockers: AdhesionSignBlockersSchema,
  /** The principal's phone as the SMS code reaches it (masked). */
  phoneMasked: z.string().nullable(),
  signedUploadMaxBytes: z.number().int(),
});
export type CurrentAdhesion = z.infer<typeof CurrentAdhesionSchema>;

export const ADHESION_CORRECTION_MESSAGES = {
  schoolSites: 'Scegli almeno un plesso che partecipa al programma.',
  siteNotOfInstitute: 'Tra i plessi scelti ce n’è uno che non appartiene all’istituto.',
  notCorrectable: 'I dati dell’adesione si possono correggere solo quando lo staff ha chiesto correzioni.',
  saved:
    'Correzioni salvate: il documento di adesione è stato aggiornato (nuova versione). Il dirigente scolastico deve firmarlo di nuovo.',
} as const;

/** The institute's correction when the staff sent the adhesion back: the participating plessi (issue 35, item 2). */
export const AdhesionCorrectionBodySchema = z
  .object({
    schoolSiteIds: z
      .array(z.number().int().positive(), { error: ADHESION_CORRECTION_MESSAGES.schoolSites })
      .min(1, ADHESION_CORRECTION_MESSAGES.schoolSites)
      .max(500)
      .transform((ids) => [...new Set(ids)]),
  })
  .strict();
export type AdhesionCorrectionBody = z.input<typeof AdhesionCorrectionBodySchema>;

export const SignatureChallengeBodySchema = z.object({ documentSha256: Sha256Schema }).strict();

export const SignatureChallengeSchema = z.object({
  challengeId: z.string(),
  phoneMasked: z.string(),
  expiresInSeconds: z.number().int(),
  resendAfterSeconds: z.number().int(),
});
export type SignatureChallenge = z.infer<typeof SignatureChallengeSchema>;

export const OnlineSignatureBodySchema = z
  .object({
    challengeId: z.uuid('Il codice non è più valido: chiedine uno nuovo.'),
    code: z
      .string({ error: 'Inserisci il codice ricevuto via SMS.' })
      .trim()
      .regex(/^\d{6}$/, 'Il codice è formato da 6 cifre.'),
    documentSha256: Sha256Schema,
  })
  .strict();
export type OnlineSignatureBody = z.input<typeof OnlineSignatureBodySchema>;

/**
 * Which of the caller's institutes (a principal or first contact may hold several, issue 35 item 1):
 * `istituto` = its id; absent, the one that needs the caller first (to sign or correct), then the oldest.
 */
export const InstituteChoiceQuerySchema = z
  .object({
    istituto: z.coerce
      .number({ error: 'Istituto non valido.' })
      .int('Istituto non valido.')
      .positive('Istituto non valido.')
      .optional(),
  })
  .strict();
export type InstituteChoiceQuery = z.input<typeof InstituteChoiceQuerySchema>;

export const SignedUploadQuerySchema = z
  .object({
    istituto: z.coerce
      .number({ error: 'Istituto non valido.' })
      .int('Istituto non valido.')
      .positive('Istituto non valido.')
      .optional(),
    filename: z
      .string({ error: 'Manca il nome del file.' })
      .trim()
      .min(1, 'Manca il nome del file.')
      .max(200, 'Il nome del file può contenere al massimo 200 caratteri.'),
  })
  .strict();

/** A recorded signature: the institute is now `adesione_firmata` and waits for the staff review. */
export const SignatureResultSchema = z.object({
  signature: AdhesionSignatureSchema,
  adhesionState: z.enum(ADHESION_STATES),
});
export type SignatureResult = z.infer<typeof SignatureResultSchema>;

/** `/portale` home of a principal or first contact: their institute, its plessi and teachers. */
export const SchoolHomeSchema = z.object({
  viewerRole: z.enum(ADHESION_VIEWER_ROLES),
  institute: z.object({
    id: z.number().int(),
    ministryCode: z.string(),
    name: z.string(),
    municipalityName: z.string(),
    province: z.string(),
    adhesionState: z.enum(ADHESION_STATES),
    adhesionStateChangedAt: isoDateTime.nullable(),
  }),
  nextStep: AdhesionNextStepSchema,
  schoolSites: z.array(
    AdhesionSchoolSiteSchema.extend({ participating: z.boolean(), teacherCount: z.number().int() }),
  ),
  teachers: z.object({
    total: z.number().int(),
    /** The first ones by name (at most 10). */
    items: z.array(
      z.object({
        id: z.number().int(),
        firstName: z.string(),
        lastName: z.string(),
        kind: z.string(),
        reviewState: z.enum(TEACHER_REVIEW_STATES),
        schoolSiteName: z.string(),
      }),
    ),
  }),
});
export type SchoolHome = z.infer<typeof SchoolHomeSchema>;
