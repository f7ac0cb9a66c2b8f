import {
  AccessCodeInputSchema,
  createAccessCodes,
  revokeAccessCode,
  type AccessCodeSummary,
} from '@portale/shared/surveys';
import { parseId } from '@portale/shared/validation';
import { callApi } from '../../lib/api-client.ts';
import { checkForm } from '../../lib/form-action.ts';
import { failureResult, text, type FormResult } from '../../lib/form-data.ts';

/** The teacher home's two forms (decision 045: a widget's mutation posts to its page's action). */
export const CREATE_CODES_INTENT = 'create-codes';
export const REVOKE_CODE_INTENT = 'revoke-code';

/** The fetchers the home reads back: the codes just made, and the last revocation's outcome. */
export const CREATE_CODES_FETCHER = 'create-codes';
export const REVOKE_CODE_FETCHER = 'revoke-code';

/** The codes just made, or why not: the form's message on top and each field's next to it. */
export type CreateCodesOutcome = FormResult & { items?: AccessCodeSummary[] };

/** A revocation's outcome, shown in the home's notice. */
export interface RevokeCodeOutcome {
  codeId: number;
  kind: 'success' | 'danger';
  text: string;
}

/**
 * New codes for a class of the teacher's plesso: checked with the contract's schema first (a refusal
 * sends nothing), then made by the API (its 422 goes next to the fields).
 */
export async function createCodesStep(form: FormData): Promise<CreateCodesOutcome> {
  const schoolSiteId = parseId(text(form, 'schoolSiteId'));
  const checked = checkForm(AccessCodeInputSchema, {
    surveyId: Number(text(form, 'surveyId')),
    ...(schoolSiteId === undefined ? {} : { schoolSiteId }),
    classLabel: text(form, 'classLabel'),
    count: text(form, 'count'),
    maxUses: text(form, 'maxUses'),
    expiresOn: text(form, 'expiresOn'),
  });
  if (!checked.ok) return checked.result;
  try {
    const { items } = await callApi(createAccessCodes, { body: checked.data });
    return { ok: true, items };
  } catch (error) {
    return failureResult(error, 'Non è stato possibile creare i codici. Riprova più tardi.');
  }
}

/** Revokes one of the teacher's codes: it no longer opens the questionnaire. */
export async function revokeCodeStep(form: FormData): Promise<RevokeCodeOutcome | null> {
  const codeId = parseId(text(form, 'codeId'));
  if (codeId === undefined) return null;
  try {
    await callApi(revokeAccessCode, { params: { id: codeId } });
    return {
      codeId,
      kind: 'success',
      text: `Il codice ${text(form, 'code')} è stato revocato: non apre più il questionario.`,
    };
  } catch (error) {
    return {
      codeId,
      kind: 'danger',
      text: error instanceof Error ? error.message : 'Revoca non riuscita. Riprova più tardi.',
    };
  }
}
