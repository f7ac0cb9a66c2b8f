import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { IdParamSchema } from '../validation/index.ts';
import { ConsentRecordedSchema, ConsentRecordInputSchema } from './consent.schemas.ts';
import { ContactAcceptedSchema, ContactMessageInputSchema } from './contact.schemas.ts';
import { DocumentListSchema, FiguresSchema, PublicSurveySchema } from './public.schemas.ts';

/** Contracts of the public site's API (issue 3): all anonymous. */

export const getPublicFigures = defineEndpoint({
  method: 'GET',
  path: '/api/public/figures',
  permission: 'public',
  tag: 'public',
  summary: 'Numeri chiave del programma',
  response: FiguresSchema,
});

export const listPublicDocuments = defineEndpoint({
  method: 'GET',
  path: '/api/public/documents',
  permission: 'public',
  tag: 'public',
  summary: 'Documenti pubblicati, per categoria',
  response: DocumentListSchema,
});

export const downloadPublicDocument = defineEndpoint({
  method: 'GET',
  path: '/api/public/documents/:documentId/file',
  permission: 'public',
  tag: 'public',
  summary: 'Scarica un documento pubblicato',
  params: z.object({ documentId: IdParamSchema }),
  response: z.string(),
  download: true,
  media: { response: ['application/pdf'] },
});

export const getPublicSurvey = defineEndpoint({
  method: 'GET',
  path: '/api/public/survey',
  permission: 'public',
  tag: 'public',
  summary: "L'indagine in corso",
  response: PublicSurveySchema,
});

export const sendContactMessage = defineEndpoint({
  method: 'POST',
  path: '/api/public/contact',
  permission: 'public',
  tag: 'public',
  summary: 'Invia un messaggio allo staff del programma',
  body: ContactMessageInputSchema,
  response: ContactAcceptedSchema,
  status: 202,
});

export const recordConsent = defineEndpoint({
  method: 'POST',
  path: '/api/consents',
  permission: 'public',
  tag: 'public',
  summary: 'Registra una scelta sui cookie',
  body: ConsentRecordInputSchema,
  response: ConsentRecordedSchema,
  status: 201,
});
