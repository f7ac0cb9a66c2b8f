import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { ExportFormatSchema } from '../lists/list-query.ts';
import { IdParamSchema } from '../validation/index.ts';
import {
  SubstitutionCandidatesSchema,
  SubstitutionCreatedSchema,
  SubstitutionCreateSchema,
  SubstitutionDecidedSchema,
  SubstitutionDecisionSchema,
  SubstitutionFiltersSchema,
  SubstitutionListQuerySchema,
  SubstitutionListResponseSchema,
  SubstitutionSummarySchema,
} from './substitutions.schemas.ts';

/** Contracts of substitutions (issue 10, product §3/§5): requests of the institutes, decisions of the staff. */

const SubstitutionParams = z.object({ substitutionId: IdParamSchema });

export const listSubstitutions = defineEndpoint({
  method: 'GET',
  path: '/api/substitutions',
  permission: 'read:substitution',
  tag: 'substitutions',
  summary:
    'Richieste di sostituzione (tutte per lo staff, quelle del proprio istituto per dirigente e referente)',
  query: SubstitutionListQuerySchema,
  response: SubstitutionListResponseSchema,
});

export const exportSubstitutions = defineEndpoint({
  method: 'GET',
  path: '/api/substitutions/export',
  permission: 'export:substitution',
  tag: 'substitutions',
  summary: 'Esporta le richieste di sostituzione filtrate (CSV o XLSX)',
  query: SubstitutionFiltersSchema.extend(ExportFormatSchema.shape),
  response: z.string(),
  download: true,
});

export const getSubstitutionCandidates = defineEndpoint({
  method: 'GET',
  path: '/api/substitutions/candidates',
  permission: 'create:substitution',
  tag: 'substitutions',
  summary: 'I plessi e gli insegnanti che il dirigente o il referente può indicare in una richiesta',
  response: SubstitutionCandidatesSchema,
});

export const createSubstitution = defineEndpoint({
  method: 'POST',
  path: '/api/substitutions',
  permission: 'create:substitution',
  tag: 'substitutions',
  summary:
    'Chiede di sostituire un insegnante di un plesso dell’istituto (409 se c’è già una richiesta aperta)',
  body: SubstitutionCreateSchema,
  response: SubstitutionCreatedSchema,
  status: 201,
});

export const getSubstitution = defineEndpoint({
  method: 'GET',
  path: '/api/substitutions/:substitutionId',
  permission: 'read:substitution',
  tag: 'substitutions',
  summary: 'Una richiesta di sostituzione',
  params: SubstitutionParams,
  response: SubstitutionSummarySchema,
});

export const decideSubstitution = defineEndpoint({
  method: 'POST',
  path: '/api/substitutions/:substitutionId/decision',
  permission: 'decide:substitution',
  tag: 'substitutions',
  summary:
    'Approva (sposta plesso, classi e codici a chi subentra) o respinge con una nota; 409 se già decisa',
  params: SubstitutionParams,
  body: SubstitutionDecisionSchema,
  response: SubstitutionDecidedSchema,
});
