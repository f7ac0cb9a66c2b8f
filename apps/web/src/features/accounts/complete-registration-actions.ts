import { redirect } from 'react-router';
import {
  confirmPhoneVerification,
  ConfirmPhoneBodySchema,
  createAccountPhoneVerification,
  getAccountProfile,
  RESEND_EMAIL_ANSWER,
  resendEmailVerification,
  resendPhoneVerificationCode,
  StartAccountPhoneVerificationBodySchema,
  updateAccountProfile,
  UpdateProfileBodySchema,
  type AccountProfile,
} from '@portale/shared/accounts';
import type { EndpointOutput } from '@portale/shared/http';
import { REDIRECTS } from '@portale/shared/pages';
import { failureResult, intentAction, issuesToErrors, text, type FormResult } from '../../lib/form-data.ts';
import { callApi } from '../../lib/api-client.ts';
import { phoneStepFrom as phoneFrom, type PhoneStep } from '../../components/sms-code-form.tsx';
import { reloadUser } from '../../lib/session.ts';

export type CompleteActionData = FormResult & { intent: string; phone?: PhoneStep };

/**
 * The profile; when nothing is missing the session user is refreshed and the portal opens — unless the
 * staff sent the registration back for corrections: then this is where the note is read and the data corrected.
 */
export async function loader(): Promise<AccountProfile> {
  const profile = await callApi(getAccountProfile, {});
  if (profile.missing.length === 0 && profile.teacherProfile?.reviewState !== 'da_correggere') {
    await reloadUser();
    throw redirect(REDIRECTS.home);
  }
  return profile;
}

const started = (body: EndpointOutput<typeof createAccountPhoneVerification>): PhoneStep => ({
  ...body,
  at: Date.now(),
});

async function run(intent: string, form: FormData): Promise<Omit<CompleteActionData, 'intent'>> {
  switch (intent) {
    case 'phone-start': {
      const parsed = StartAccountPhoneVerificationBodySchema.safeParse({ phone: text(form, 'phone') });
      if (!parsed.success) return { errors: issuesToErrors(parsed.error.issues) };
      return { phone: started(await callApi(createAccountPhoneVerification, { body: parsed.data })) };
    }
    case 'phone-confirm': {
      const phone = phoneFrom(form);
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
      await reloadUser();
      return { ok: true, message: 'Il numero di cellulare è stato verificato.' };
    }
    case 'phone-resend': {
      const phone = phoneFrom(form);
      try {
        return {
          phone: started(
            await callApi(resendPhoneVerificationCode, { params: { verificationId: phone.verificationId } }),
          ),
          ok: true,
          message: 'Ti abbiamo inviato un nuovo codice.',
        };
      } catch (error) {
        return { phone, ...failureResult(error) };
      }
    }
    case 'email-resend':
      await callApi(resendEmailVerification, { body: {} });
      return { ok: true, message: RESEND_EMAIL_ANSWER };
    case 'tax-code':
    case 'school-site': {
      const body =
        intent === 'tax-code'
          ? { taxCode: text(form, 'taxCode') }
          : { schoolSiteId: Number(text(form, 'schoolSiteId')) || undefined };
      const parsed = UpdateProfileBodySchema.safeParse(body);
      if (!parsed.success || (intent === 'school-site' && !parsed.data.schoolSiteId)) {
        return {
          errors: parsed.success
            ? { schoolSiteId: 'Scegli il plesso dall’elenco dei risultati.' }
            : issuesToErrors(parsed.error.issues),
        };
      }
      await callApi(updateAccountProfile, { body: parsed.data });
      return { ok: true, message: 'Dati salvati.' };
    }
    case 'correction': {
      // The corrected registration goes back to the staff's queue (the API reopens the review).
      const subjects = text(form, 'subjects')
        .split(/[,\n;]/)
        .map((v) => v.trim())
        .filter(Boolean);
      const parsed = UpdateProfileBodySchema.safeParse({
        subjects,
        schoolSiteId: Number(text(form, 'schoolSiteId')) || undefined,
      });
      if (!parsed.success) return { errors: issuesToErrors(parsed.error.issues) };
      await callApi(updateAccountProfile, { body: parsed.data });
      await reloadUser();
      throw redirect(REDIRECTS.home);
    }
    default:
      return { message: 'Operazione non riconosciuta.' };
  }
}

export const action = intentAction(run);
