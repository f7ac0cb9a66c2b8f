import type { ActionFunctionArgs } from 'react-router';
import { TEACHER_KINDS, type TeacherKind } from '@portale/shared/accounts';
import { createRegistration, RegistrationBodySchema } from '@portale/shared/accounts/password';
import { failureResult, text, type FormResult } from '../../lib/form-data.ts';
import { callApi } from '../../lib/api-client.ts';
import { invalidForm } from '../../lib/form-action.ts';

/** Comma- or newline-separated subjects/roles. */
function splitList(value: string): string[] {
  return value
    .split(/[,\n;]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** POST /api/registrations; 422 errors go next to their fields, success shows the e-mail notice. */
export async function registrationAction({ request }: ActionFunctionArgs): Promise<FormResult> {
  const form = await request.formData();
  const kind = text(form, 'kind') as TeacherKind;
  const schoolSiteId = Number(text(form, 'schoolSiteId'));
  const taxCode = text(form, 'taxCode').trim();
  const candidate = {
    kind: TEACHER_KINDS.includes(kind) ? kind : 'altro',
    firstName: text(form, 'firstName'),
    lastName: text(form, 'lastName'),
    email: text(form, 'email'),
    phone: text(form, 'phone'),
    password: text(form, 'password'),
    taxCode: taxCode || null,
    schoolSiteId: schoolSiteId > 0 ? schoolSiteId : null,
    subjects: splitList(text(form, 'subjects')),
    privacyAccepted: form.get('privacyAccepted') === 'true',
  };
  const parsed = RegistrationBodySchema.safeParse(candidate);
  if (!parsed.success) return invalidForm(parsed.error.issues, 'Controlla i campi evidenziati.');
  try {
    const answer = await callApi(createRegistration, { body: parsed.data });
    return { ok: true, message: answer.message };
  } catch (error) {
    return failureResult(error, 'Registrazione non riuscita. Riprova più tardi.');
  }
}
