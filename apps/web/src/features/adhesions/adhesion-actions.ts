import {
  correctAdhesionSchoolSites,
  ADHESION_CORRECTION_MESSAGES,
  createSignatureChallenge,
  getCurrentAdhesion,
  prepareAdhesionDocument,
  signAdhesionOnline,
  uploadSignedAdhesion,
  type AdhesionSignature,
  type CurrentAdhesion,
} from '@portale/shared/adhesions';
import type { LoaderFunctionArgs } from 'react-router';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { failureResult, text, type FormResult } from '../../lib/form-data.ts';
import { reloadUser } from '../../lib/session.ts';

/** The institute chosen in the address (`?istituto=`), for a person who holds several (issue 35, item 1). */
function choiceOf(request: Request): { istituto?: number } {
  const id = Number(new URL(request.url).searchParams.get('istituto'));
  return Number.isInteger(id) && id > 0 ? { istituto: id } : {};
}

export async function loader({ request }: LoaderFunctionArgs): Promise<CurrentAdhesion> {
  return callApi(getCurrentAdhesion, { query: choiceOf(request) }, { signal: request.signal });
}

/** An online signature in progress: the SMS challenge, carried in hidden fields from one action to the next. */
export interface ChallengeStep {
  challengeId: string;
  phoneMasked: string;
  resendAfterSeconds: number;
  /** When the code was sent (ms), to count down the resend delay. */
  at: number;
}

export type AdhesionActionData = FormResult & {
  intent: string;
  challenge?: ChallengeStep;
  signature?: AdhesionSignature;
};

function challengeFrom(form: FormData): ChallengeStep | undefined {
  const challengeId = text(form, 'challengeId');
  if (!challengeId) return undefined;
  return {
    challengeId,
    phoneMasked: text(form, 'phoneMasked'),
    resendAfterSeconds: Number(text(form, 'resendAfterSeconds')) || 60,
    at: Number(text(form, 'at')) || Date.now(),
  };
}

const ACCEPTED = /\.(pdf|p7m|p7s)$/i;

function uploadType(name: string): string {
  if (/\.p7m$/i.test(name)) return 'application/pkcs7-mime';
  if (/\.p7s$/i.test(name)) return 'application/pkcs7-signature';
  return 'application/pdf';
}

/** Sends the signed file as the request body (the API reads the raw bytes; the name travels in the query). */
async function uploadFile(file: File, choice: { istituto?: number }): Promise<AdhesionSignature> {
  const result = await callApi(uploadSignedAdhesion, {
    query: { ...choice, filename: file.name },
    body: file,
    contentType: uploadType(file.name),
  });
  return result.signature;
}

/** After a signature the session's "must sign" flag is stale: the guard of /portale reads the fresh user. */
async function signed(intent: string, signature: AdhesionSignature): Promise<AdhesionActionData> {
  await reloadUser().catch(() => undefined);
  return { intent, ok: true, signature };
}

/** The page's forms: prepare the document, send the SMS code, confirm it, upload a signed file. */
export async function action({ request }: { request: Request }): Promise<AdhesionActionData> {
  const form = await request.formData();
  const intent = text(form, 'intent');
  const documentSha256 = text(form, 'documentSha256');
  const challenge = challengeFrom(form);
  const query = choiceOf(request);
  try {
    switch (intent) {
      case 'correct': {
        const schoolSiteIds = form
          .getAll('schoolSiteIds')
          .map(Number)
          .filter((id) => Number.isInteger(id) && id > 0);
        if (schoolSiteIds.length === 0)
          return { intent, errors: { schoolSiteIds: ADHESION_CORRECTION_MESSAGES.schoolSites } };
        await callApi(correctAdhesionSchoolSites, { query, body: { schoolSiteIds } });
        return { intent, ok: true, message: ADHESION_CORRECTION_MESSAGES.saved };
      }
      case 'prepare':
        await callApi(prepareAdhesionDocument, { query });
        return {
          intent,
          ok: true,
          message: 'Il documento è stato preparato con i dati attuali dell’istituto.',
        };
      case 'send-code': {
        const sent = await callApi(createSignatureChallenge, { query, body: { documentSha256 } });
        return {
          intent,
          ok: true,
          challenge: {
            challengeId: sent.challengeId,
            phoneMasked: sent.phoneMasked,
            resendAfterSeconds: sent.resendAfterSeconds,
            at: Date.now(),
          },
        };
      }
      case 'sign': {
        const code = text(form, 'code').trim();
        if (!/^\d{6}$/.test(code)) {
          return { intent, challenge, errors: { code: 'Inserisci il codice di 6 cifre ricevuto via SMS.' } };
        }
        const result = await callApi(signAdhesionOnline, {
          query,
          body: { challengeId: challenge?.challengeId ?? '', code, documentSha256 },
        });
        return signed(intent, result.signature);
      }
      case 'upload': {
        const file = form.get('signedFile');
        const max = Number(text(form, 'maxBytes')) || Infinity;
        if (!(file instanceof File) || file.size === 0)
          return { intent, errors: { signedFile: 'Scegli il file del documento firmato digitalmente.' } };
        if (!ACCEPTED.test(file.name))
          return {
            intent,
            errors: {
              signedFile:
                'Il file deve essere un PDF firmato (.pdf), un file .p7m o una firma staccata .p7s.',
            },
          };
        if (file.size > max)
          return {
            intent,
            errors: {
              signedFile: `Il file supera la dimensione massima di ${Math.round(max / 1_048_576)} MB.`,
            },
          };
        return signed(intent, await uploadFile(file, query));
      }
      default:
        return { intent, message: 'Operazione non riconosciuta.' };
    }
  } catch (error) {
    const failure = failureResult(error);
    // A refused code or file is told next to its field; the code step stays open.
    if (intent === 'sign') {
      const codeRefused =
        error instanceof ApiError && error.status === 422 && !failure.errors?.documentSha256;
      return codeRefused
        ? {
            intent,
            challenge,
            errors: { code: failure.errors?.code ?? failure.message ?? 'Codice non valido.' },
          }
        : { intent, ...failure, ...(error instanceof ApiError && error.status === 409 ? {} : { challenge }) };
    }
    if (intent === 'upload' && error instanceof ApiError && (error.status === 422 || error.status === 413)) {
      return { intent, errors: { signedFile: failure.message ?? 'File non valido.' } };
    }
    return { intent, ...failure };
  }
}
