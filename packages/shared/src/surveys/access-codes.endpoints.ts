import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { ExportFormatSchema } from '../lists/list-query.ts';
import { IdParamSchema } from '../validation/index.ts';
import {
  AccessCodeFiltersSchema,
  AccessCodeInputSchema,
  AccessCodeListQuerySchema,
  AccessCodeListResponseSchema,
  AccessCodeOptionsSchema,
  AccessCodeParamsSchema,
  AccessCodeResponseCreatedSchema,
  AccessCodeSheetQuerySchema,
  AccessCodesCreatedSchema,
  AccessCodeSummarySchema,
  PublicAccessCodeSchema,
} from './access-codes.schemas.ts';
import { ResponseInputSchema } from './surveys.schemas.ts';

/**
 * Contracts of access codes (issue 12): a teacher's codes for the classes of their plesso (staff: all),
 * their printed sheet, and the public side of `/{code}` (the questionnaire and its submission).
 * The public endpoints answer one identical 404 for a malformed, unknown, expired, revoked or used-up
 * code (`ACCESS_CODE_MESSAGES.notFound`), and are rate limited per IP (429 in Italian).
 */

export const listAccessCodes = defineEndpoint({
  method: 'GET',
  path: '/api/access-codes',
  permission: 'read:access-code',
  tag: 'access-codes',
  summary:
    'I codici di accesso: i propri (insegnanti) o tutti (staff), con ricerca, filtri, ordinamento e pagine',
  query: AccessCodeListQuerySchema,
  response: AccessCodeListResponseSchema,
});

export const exportAccessCodes = defineEndpoint({
  method: 'GET',
  path: '/api/access-codes/export',
  permission: 'read:access-code',
  tag: 'access-codes',
  summary: 'Esporta i codici di accesso filtrati (CSV o XLSX)',
  query: AccessCodeFiltersSchema.extend(ExportFormatSchema.shape),
  response: z.string(),
  download: true,
});

export const getAccessCodeOptions = defineEndpoint({
  method: 'GET',
  path: '/api/access-codes/options',
  permission: 'create:access-code',
  tag: 'access-codes',
  summary: 'Cosa offre il modulo dei codici: le indagini aperte e il plesso di chi li crea',
  response: AccessCodeOptionsSchema,
});

export const createAccessCodes = defineEndpoint({
  method: 'POST',
  path: '/api/access-codes',
  permission: 'create:access-code',
  tag: 'access-codes',
  summary:
    "Crea i codici di accesso di una classe per un'indagine aperta (insegnanti: solo per il proprio plesso)",
  body: AccessCodeInputSchema,
  response: AccessCodesCreatedSchema,
  status: 201,
});

export const revokeAccessCode = defineEndpoint({
  method: 'POST',
  path: '/api/access-codes/:id/revoke',
  permission: 'update:access-code',
  tag: 'access-codes',
  summary: 'Revoca un codice: da quel momento non apre più il questionario',
  params: z.object({ id: IdParamSchema }),
  response: AccessCodeSummarySchema,
});

export const accessCodeSheet = defineEndpoint({
  method: 'GET',
  path: '/api/access-codes/sheet.pdf',
  permission: 'read:access-code',
  tag: 'access-codes',
  summary: 'Il foglio da stampare (PDF): una scheda per codice con indirizzo, classe, scadenza e istruzioni',
  query: AccessCodeSheetQuerySchema,
  response: z.string(),
  download: true,
  media: { response: ['application/pdf'] },
});

export const getPublicAccessCode = defineEndpoint({
  method: 'GET',
  path: '/api/access-codes/:code',
  permission: 'public',
  tag: 'access-codes',
  summary:
    'Il questionario anonimo di un codice valido (404 identico per codici sconosciuti, scaduti, revocati, esauriti o malformati)',
  params: AccessCodeParamsSchema,
  response: PublicAccessCodeSchema,
});

export const submitAccessCodeResponse = defineEndpoint({
  method: 'POST',
  path: '/api/access-codes/:code/responses',
  permission: 'public',
  tag: 'access-codes',
  summary: 'Invia le risposte anonime con un codice (usa un utilizzo; 404 se il codice non è più valido)',
  params: AccessCodeParamsSchema,
  body: ResponseInputSchema,
  response: AccessCodeResponseCreatedSchema,
  status: 201,
});
