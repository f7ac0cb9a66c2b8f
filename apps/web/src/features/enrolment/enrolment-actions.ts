import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import {
  ConfirmPhoneBodySchema,
  confirmPhoneVerification,
  createPhoneVerification,
  resendPhoneVerificationCode,
  StartPhoneVerificationBodySchema,
} from '@portale/shared/accounts';
import {
  createEnrolment,
  EnrolmentBodySchema,
  getEnrolmentInstitute,
  getEnrolmentVerification,
  searchEnrolmentInstitutes,
  type EnrolmentCreated,
  type EnrolmentInstitute,
  type EnrolmentInstituteOption,
  type EnrolmentVerification,
} from '@portale/shared/enrolment';
import { href } from '@portale/shared/pages';
import { pendingIdentity, type PendingIdentity } from '@portale/shared/identity';
import { forgetPendingIdentity, mayHavePendingIdentity } from '../../lib/identity-marks.ts';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { failureResult, issuesToErrors, text, type FormResult } from '../../lib/form-data.ts';
import { phoneStepFrom, type PhoneStep } from '../../components/sms-code-form.tsx';

/** The query parameter that carries the verified phone (read by the guard must-have-verified-phone-on-query-param). */
export const VERIFY_PARAM = 'verifica';
/** The chosen institute and the search text, also in the URL: the back button and a reload keep them. */
export const INSTITUTE_PARAM = 'istituto';
export const SEARCH_PARAM = 'q';

export type EnrolmentPageData =
  | { step: 'phone' }
  | { step: 'verification-problem'; verification: EnrolmentVerification }
  | {
      step: 'institute';
      verificationId: string;
      verification: EnrolmentVerification;
      q: string;
      results: EnrolmentInstituteOption[] | null;
      searchError?: string;
    }
  | {
      step: 'details';
      verificationId: string;
      verification: EnrolmentVerification;
      q: string;
      institute: EnrolmentInstitute;
      /** This browser's identity verified with SPID/CIE and no account (decision 054), if any. */
      verifiedIdentity: PendingIdentity | null;
    };

export type EnrolmentActionData = FormResult & {
  intent: string;
  phone?: PhoneStep;
  enrolled?: EnrolmentCreated;
};

const VERIFIED_PEOPLE = ['principal', 'firstContact'];
const enrolmentPath = () => href('enrolment');
export const stepUrl = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') search.set(key, String(value));
  return `${enrolmentPath()}?${search.toString()}`;
};

const messageOf = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.status < 500 ? error.message : fallback;

/** Step 1 without `verifica`; otherwise the verification's state, then the institute search or the chosen institute. */
export async function loader({ request }: LoaderFunctionArgs): Promise<EnrolmentPageData> {
  const url = new URL(request.url);
  const verificationId = url.searchParams.get(VERIFY_PARAM);
  if (!verificationId) return { step: 'phone' };
  const verification = await callApi(getEnrolmentVerification, { params: { verificationId } });
  if (verification.status !== 'usable') return { step: 'verification-problem', verification };
  const q = url.searchParams.get(SEARCH_PARAM)?.trim() ?? '';
  const instituteId = Number(url.searchParams.get(INSTITUTE_PARAM));
  if (Number.isInteger(instituteId) && instituteId > 0) {
    try {
      const [institute, verifiedIdentity] = await Promise.all([
        callApi(getEnrolmentInstitute, { params: { instituteId } }),
        verifiedIdentityOfBrowser(),
      ]);
      return { step: 'details', verificationId, verification, q, institute, verifiedIdentity };
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) throw error;
    }
  }
  if (q.length === 0) return { step: 'institute', verificationId, verification, q, results: null };
  try {
    const { items } = await callApi(searchEnrolmentInstitutes, { query: { q } });
    return { step: 'institute', verificationId, verification, q, results: items };
  } catch (error) {
    return {
      step: 'institute',
      verificationId,
      verification,
      q,
      results: null,
      searchError: messageOf(error, 'Ricerca non riuscita. Riprova più tardi.'),
    };
  }
}

/**
 * The identity verified in this browser that found no account (none, expired, or not configured:
 * null). The API is asked only when the result page saw one waiting (its cookie is HttpOnly), so that
 * a portal without SPID/CIE, or a browser that never used them, gets no 404 here.
 */
async function verifiedIdentityOfBrowser(): Promise<PendingIdentity | null> {
  if (!mayHavePendingIdentity()) return null;
  try {
    const pending = await callApi(pendingIdentity, {});
    return pending.kind === 'register' ? pending : null;
  } catch {
    forgetPendingIdentity();
    return null;
  }
}

function person(form: FormData, prefix: string) {
  return {
    firstName: text(form, `${prefix}.firstName`),
    lastName: text(form, `${prefix}.lastName`),
    email: text(form, `${prefix}.email`),
    taxCode: text(form, `${prefix}.taxCode`),
    phone: text(form, `${prefix}.phone`),
  };
}

async function run(intent: string, form: FormData): Promise<Omit<EnrolmentActionData, 'intent'>> {
  switch (intent) {
    case 'phone-start': {
      const parsed = StartPhoneVerificationBodySchema.safeParse({ phone: text(form, 'phone') });
      if (!parsed.success) return { errors: issuesToErrors(parsed.error.issues) };
      const started = await callApi(createPhoneVerification, { body: parsed.data });
      return { phone: { ...started, at: Date.now() } };
    }
    case 'phone-confirm': {
      const phone = phoneStepFrom(form);
      const parsed = ConfirmPhoneBodySchema.safeParse({ code: text(form, 'code') });
      if (!parsed.success) return { phone, errors: issuesToErrors(parsed.error.issues) };
      try {
        await callApi(confirmPhoneVerification, {
          params: { verificationId: phone.verificationId },
          body: parsed.data,
        });
      } catch (error) {
        const failure = failureResult(error);
        return { phone, errors: { code: failure.errors?.code ?? failure.message ?? 'Codice non valido.' } };
      }
      throw redirect(stepUrl({ [VERIFY_PARAM]: phone.verificationId }));
    }
    case 'phone-resend': {
      const phone = phoneStepFrom(form);
      try {
        const again = await callApi(resendPhoneVerificationCode, {
          params: { verificationId: phone.verificationId },
        });
        return {
          phone: { ...again, at: Date.now() },
          ok: true,
          message: 'Ti abbiamo inviato un nuovo codice.',
        };
      } catch (error) {
        return { phone, ...failureResult(error) };
      }
    }
    case 'enrol': {
      const sameperson = form.get('firstContactIsPrincipal') === 'true';
      const candidate = {
        verificationId: text(form, 'verificationId'),
        instituteId: Number(text(form, 'instituteId')),
        principal: person(form, 'principal'),
        firstContact: sameperson ? null : person(form, 'firstContact'),
        schoolSiteIds: form
          .getAll('schoolSiteIds')
          .map(Number)
          .filter((id) => Number.isInteger(id) && id > 0),
        privacyAccepted: form.get('privacyAccepted') === 'true',
        ...(VERIFIED_PEOPLE.includes(text(form, 'verifiedPerson'))
          ? { verifiedPerson: text(form, 'verifiedPerson') }
          : {}),
      };
      const parsed = EnrolmentBodySchema.safeParse(candidate);
      if (!parsed.success)
        return { message: 'Controlla i campi evidenziati.', errors: issuesToErrors(parsed.error.issues) };
      try {
        return { ok: true, enrolled: await callApi(createEnrolment, { body: parsed.data }) };
      } catch (error) {
        const failure = failureResult(error, 'Iscrizione non riuscita. Riprova più tardi.');
        return Object.keys(failure.errors ?? {}).length > 0
          ? { ...failure, message: 'Controlla i campi evidenziati.' }
          : failure;
      }
    }
    default:
      return { message: 'Operazione non riconosciuta.' };
  }
}

/** The route action: the phone steps (start, code, resend) and the enrolment itself. */
export async function action({ request }: ActionFunctionArgs): Promise<EnrolmentActionData> {
  const form = await request.formData();
  const intent = text(form, 'intent');
  try {
    return { intent, ...(await run(intent, form)) };
  } catch (error) {
    if (error instanceof Response) throw error;
    return { intent, ...failureResult(error) };
  }
}
