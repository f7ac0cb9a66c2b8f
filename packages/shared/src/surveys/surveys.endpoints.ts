import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { ExportFormatSchema } from '../lists/list-query.ts';
import { IdParamSchema } from '../validation/index.ts';
import {
  CurrentSurveySchema,
  MyResponseSchema,
  QuestionListInputSchema,
  ResponseCreatedSchema,
  ResponseInputSchema,
  SurveyDetailSchema,
  SurveyFiltersSchema,
  SurveyInputSchema,
  SurveyListQuerySchema,
  SurveyListResponseSchema,
  SurveyTransitionSchema,
  SurveyUpdateSchema,
} from './surveys.schemas.ts';

/**
 * Contracts of surveys (issue 12): the staff build them (`bozza` → `aperta` → `chiusa`; one survey
 * `aperta` at a time), a logged-in teacher or educator answers the open one once.
 */

const SurveyParams = z.object({ surveyId: IdParamSchema });

export const listSurveys = defineEndpoint({
  method: 'GET',
  path: '/api/surveys',
  permission: 'read:survey',
  tag: 'surveys',
  summary: 'Le indagini (staff): ricerca, filtro per stato, ordinamento e pagine',
  query: SurveyListQuerySchema,
  response: SurveyListResponseSchema,
});

export const exportSurveys = defineEndpoint({
  method: 'GET',
  path: '/api/surveys/export',
  permission: 'export:survey',
  tag: 'surveys',
  summary: 'Esporta le indagini filtrate (CSV o XLSX)',
  query: SurveyFiltersSchema.extend(ExportFormatSchema.shape),
  response: z.string(),
  download: true,
});

export const createSurvey = defineEndpoint({
  method: 'POST',
  path: '/api/surveys',
  permission: 'create:survey',
  tag: 'surveys',
  summary: 'Crea un’indagine in bozza',
  body: SurveyInputSchema,
  response: SurveyDetailSchema,
  status: 201,
});

export const getCurrentSurvey = defineEndpoint({
  method: 'GET',
  path: '/api/surveys/current',
  permission: 'public',
  tag: 'surveys',
  summary: 'L’indagine aperta con le sue domande (nessuna: `survey` è null)',
  response: CurrentSurveySchema,
});

export const submitMyResponse = defineEndpoint({
  method: 'POST',
  path: '/api/surveys/current/responses',
  permission: 'create:response',
  tag: 'surveys',
  summary: 'Invia le risposte all’indagine aperta (una volta per persona: 409 alla seconda)',
  body: ResponseInputSchema,
  response: ResponseCreatedSchema,
  status: 201,
});

export const getMyResponse = defineEndpoint({
  method: 'GET',
  path: '/api/surveys/current/my-response',
  permission: 'create:response',
  tag: 'surveys',
  summary: 'Le risposte che ho inviato all’indagine aperta (null se non ho ancora risposto)',
  response: MyResponseSchema,
});

export const getSurvey = defineEndpoint({
  method: 'GET',
  path: '/api/surveys/:surveyId',
  permission: 'read:survey',
  tag: 'surveys',
  summary: 'Scheda dell’indagine con le domande in ordine',
  params: SurveyParams,
  response: SurveyDetailSchema,
});

export const updateSurvey = defineEndpoint({
  method: 'PATCH',
  path: '/api/surveys/:surveyId',
  permission: 'update:survey',
  tag: 'surveys',
  summary: 'Modifica titolo, scopo, destinatari e date dell’indagine',
  params: SurveyParams,
  body: SurveyUpdateSchema,
  response: SurveyDetailSchema,
});

export const replaceSurveyQuestions = defineEndpoint({
  method: 'PUT',
  path: '/api/surveys/:surveyId/questions',
  permission: 'update:survey',
  tag: 'surveys',
  summary: 'Sostituisce l’elenco ordinato delle domande (409 se l’indagine ha già risposte)',
  params: SurveyParams,
  body: QuestionListInputSchema,
  response: SurveyDetailSchema,
});

export const transitionSurvey = defineEndpoint({
  method: 'POST',
  path: '/api/surveys/:surveyId/transition',
  permission: 'update:survey',
  tag: 'surveys',
  summary: 'Apre o chiude l’indagine (bozza → aperta → chiusa; 409 altrimenti)',
  params: SurveyParams,
  body: SurveyTransitionSchema,
  response: SurveyDetailSchema,
});
