import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { ExportFormatSchema } from '../lists/list-query.ts';
import {
  ReviewConflictSchema,
  ReviewDecisionBodySchema,
  ReviewDecisionResponseSchema,
  ReviewDetailSchema,
  ReviewFiltersSchema,
  ReviewItemParamsSchema,
  ReviewListQuerySchema,
  ReviewListResponseSchema,
  ReviewNextResponseSchema,
  ReviewTypeParamsSchema,
} from './reviews.schemas.ts';

export const listReviews = defineEndpoint({
  method: 'GET',
  path: '/api/reviews/:type',
  permission: 'read:review',
  tag: 'reviews',
  summary:
    'Coda delle revisioni di un tipo: conteggi per stato, ricerca, filtro per stato, ordinamento e pagine',
  params: ReviewTypeParamsSchema,
  query: ReviewListQuerySchema,
  response: ReviewListResponseSchema,
});

export const exportReviews = defineEndpoint({
  method: 'GET',
  path: '/api/reviews/:type/export',
  permission: 'read:review',
  tag: 'reviews',
  summary: 'Esporta la coda delle revisioni filtrata (CSV o XLSX)',
  params: ReviewTypeParamsSchema,
  query: ReviewFiltersSchema.extend(ExportFormatSchema.shape),
  response: z.string(),
  download: true,
});

export const nextReview = defineEndpoint({
  method: 'GET',
  path: '/api/reviews/:type/next',
  permission: 'decide:review',
  tag: 'reviews',
  summary:
    'Prende in carico per 5 minuti il prossimo elemento in attesa non preso da altri (o risponde che la coda è vuota)',
  params: ReviewTypeParamsSchema,
  response: ReviewNextResponseSchema,
});

export const getReview = defineEndpoint({
  method: 'GET',
  path: '/api/reviews/:type/items/:itemId',
  permission: 'read:review',
  tag: 'reviews',
  summary: 'Un elemento della coda con il suo contenuto e lo storico delle decisioni sul soggetto',
  params: ReviewItemParamsSchema,
  response: ReviewDetailSchema,
});

export const decideReview = defineEndpoint({
  method: 'POST',
  path: '/api/reviews/:type/:itemId/decision',
  permission: 'decide:review',
  tag: 'reviews',
  summary:
    'Decide un elemento in attesa: approva, chiedi correzioni o respingi (con nota); 409 se già deciso',
  params: ReviewItemParamsSchema,
  body: ReviewDecisionBodySchema,
  response: ReviewDecisionResponseSchema,
  otherResponses: { 409: ReviewConflictSchema },
});
