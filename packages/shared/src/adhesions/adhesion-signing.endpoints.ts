import { z } from 'zod';
import { defineEndpoint, defineUploadEndpoint } from '../http/endpoint.ts';
import { IdParamSchema } from '../validation/index.ts';
import {
  AdhesionCorrectionBodySchema,
  InstituteChoiceQuerySchema,
  CurrentAdhesionSchema,
  OnlineSignatureBodySchema,
  SchoolHomeSchema,
  SignatureChallengeBodySchema,
  SignatureChallengeSchema,
  SignatureResultSchema,
  SignedUploadQuerySchema,
} from './adhesion-signing.schemas.ts';

/**
 * The formal adhesion of the signed-in principal's or first contact's institute. These endpoints
 * serve the page `adhesion` and apply its guards (not the portal's): a principal who has not signed
 * yet uses them; `/current` is the caller's own institute (none: 404).
 */
const ADHESION_PAGE = 'adhesion';

export const getCurrentAdhesion = defineEndpoint({
  method: 'GET',
  path: '/api/adhesions/current',
  permission: 'read:adhesion',
  conditionsOfPage: ADHESION_PAGE,
  query: InstituteChoiceQuerySchema,
  tag: 'adhesions',
  summary: 'Adesione formale del proprio istituto: dati, stato, documento da firmare e prossimo passo',
  response: CurrentAdhesionSchema,
});

export const prepareAdhesionDocument = defineEndpoint({
  method: 'POST',
  path: '/api/adhesions/current/document',
  permission: 'update:adhesion',
  conditionsOfPage: ADHESION_PAGE,
  query: InstituteChoiceQuerySchema,
  tag: 'adhesions',
  summary: "Prepara (o rigenera) il documento di adesione con i dati attuali dell'istituto",
  response: CurrentAdhesionSchema,
});

export const correctAdhesionSchoolSites = defineEndpoint({
  method: 'PUT',
  path: '/api/adhesions/current/school-sites',
  permission: 'update:adhesion',
  conditionsOfPage: ADHESION_PAGE,
  query: InstituteChoiceQuerySchema,
  tag: 'adhesions',
  summary:
    'Corregge i plessi partecipanti quando lo staff ha chiesto correzioni: il documento diventa una nuova versione da firmare',
  body: AdhesionCorrectionBodySchema,
  response: CurrentAdhesionSchema,
});

export const downloadCurrentAdhesionDocument = defineEndpoint({
  method: 'GET',
  path: '/api/adhesions/current/document.pdf',
  permission: 'read:adhesion',
  conditionsOfPage: ADHESION_PAGE,
  query: InstituteChoiceQuerySchema,
  tag: 'adhesions',
  summary: 'Scarica il documento di adesione (PDF) nella versione attuale',
  response: z.string(),
  download: true,
  media: { response: ['application/pdf'] },
});

export const createSignatureChallenge = defineEndpoint({
  method: 'POST',
  path: '/api/adhesions/current/signature-challenges',
  permission: 'sign:adhesion',
  conditionsOfPage: ADHESION_PAGE,
  query: InstituteChoiceQuerySchema,
  tag: 'adhesions',
  summary: 'Invia al dirigente scolastico il codice SMS che conferma la firma online del documento',
  body: SignatureChallengeBodySchema,
  response: SignatureChallengeSchema,
  status: 201,
});

export const signAdhesionOnline = defineEndpoint({
  method: 'POST',
  path: '/api/adhesions/current/signatures/online',
  permission: 'sign:adhesion',
  conditionsOfPage: ADHESION_PAGE,
  query: InstituteChoiceQuerySchema,
  tag: 'adhesions',
  summary: 'Firma online il documento di adesione con il codice ricevuto via SMS',
  body: OnlineSignatureBodySchema,
  response: SignatureResultSchema,
  status: 201,
});

/** The body is the signed file itself (application/pdf, application/pkcs7-mime, application/pkcs7-signature or application/octet-stream). */
const SIGNED_UPLOAD_TYPES = [
  'application/pdf',
  'application/pkcs7-mime',
  'application/x-pkcs7-mime',
  'application/pkcs7-signature',
  'application/x-pkcs7-signature',
  'application/octet-stream',
];

export const uploadSignedAdhesion = defineUploadEndpoint({
  method: 'POST',
  path: '/api/adhesions/current/signatures/upload',
  permission: 'sign:adhesion',
  conditionsOfPage: ADHESION_PAGE,
  tag: 'adhesions',
  summary:
    'Carica il documento di adesione firmato digitalmente (PAdES .pdf, CAdES .p7m o CAdES staccata .p7s); il corpo è il file',
  query: SignedUploadQuerySchema,
  response: SignatureResultSchema,
  status: 201,
  upload: { types: SIGNED_UPLOAD_TYPES },
  media: { request: SIGNED_UPLOAD_TYPES },
});

export const getSchoolHome = defineEndpoint({
  method: 'GET',
  path: '/api/adhesions/current/overview',
  permission: 'read:adhesion',
  query: InstituteChoiceQuerySchema,
  tag: 'adhesions',
  summary: "La pagina iniziale del dirigente e del referente: l'istituto, i plessi e gli insegnanti",
  response: SchoolHomeSchema,
});

const InstituteParams = z.object({ instituteId: IdParamSchema });

export const downloadInstituteAdhesionDocument = defineEndpoint({
  method: 'GET',
  path: '/api/institutes/:instituteId/adhesion/document.pdf',
  permission: 'read:adhesion',
  tag: 'adhesions',
  summary:
    "Scarica il documento di adesione dell'istituto (quello firmato per ultimo, altrimenti l'ultima versione)",
  params: InstituteParams,
  response: z.string(),
  download: true,
  media: { response: ['application/pdf'] },
});

/**
 * The verification report (JSON) of one uploaded signature of the institute: what the portal verified,
 * against which trusted list, at which trusted time, with the CA's revocation answer (decision 032).
 */
export const downloadSignatureVerificationReport = defineEndpoint({
  method: 'GET',
  path: '/api/institutes/:instituteId/adhesion/signatures/:signatureId/verification-report',
  permission: 'read:adhesion',
  tag: 'adhesions',
  summary: 'Scarica il rapporto di verifica (JSON) di una versione della firma caricata dal dirigente',
  params: z.object({ instituteId: IdParamSchema, signatureId: IdParamSchema }),
  response: z.string(),
  download: true,
  media: { response: ['application/json'] },
});

export const downloadInstituteSignedFile = defineEndpoint({
  method: 'GET',
  path: '/api/institutes/:instituteId/adhesion/signed-file',
  permission: 'read:adhesion',
  tag: 'adhesions',
  summary: "Scarica il file firmato digitalmente caricato dal dirigente (PAdES o CAdES) per l'ultima firma",
  params: InstituteParams,
  response: z.string(),
  download: true,
  media: { response: ['application/pdf', 'application/pkcs7-mime', 'application/pkcs7-signature'] },
});
