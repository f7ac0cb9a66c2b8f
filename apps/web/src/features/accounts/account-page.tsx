import { useActionData, useLoaderData } from 'react-router';
import {
  DeletionRequestBodySchema,
  deleteSession,
  EmailChangeBodySchema,
  requestEmailChange,
  getAccountProfile,
  UpdateProfileBodySchema,
  updateAccountProfile,
  listSessions,
  requestAccountDeletion,
  revokeOtherSessions,
  type SessionInfo,
} from '@portale/shared/accounts';
import { myIdentities, unlinkIdentity, type LinkedIdentities } from '@portale/shared/identity';
import { getPage } from '@portale/shared/pages';
import { FormMessage } from '../../components/form/form-message.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { intentAction, issuesToErrors, text, type FormResult } from '../../lib/form-data.ts';
import { callApi } from '../../lib/api-client.ts';
import { EMAIL_CHANGE_INTENT, EmailChange } from './email-change.tsx';
import { PersonalData } from './personal-data.tsx';
import { LinkedIdentitiesSection, UNLINK_IDENTITY_INTENT } from './linked-identities.tsx';
import { SessionsList } from './sessions-list.tsx';
import { TAX_CODE_INTENT, TaxCodeChange } from './tax-code-change.tsx';

export type AccountActionData = FormResult & { intent?: string };

interface AccountData {
  sessions: SessionInfo[];
  taxCode: string | null;
  email: string;
  identities: LinkedIdentities;
}

/** Own data of the page (not `/api/portal/pages/:id`): the user's active sessions and codice fiscale. */
export async function loader(): Promise<AccountData> {
  const [sessions, profile, identities] = await Promise.all([
    callApi(listSessions, {}),
    callApi(getAccountProfile, {}),
    callApi(myIdentities, {}),
  ]);
  return { sessions: sessions.items, taxCode: profile.taxCode, email: profile.email, identities };
}

async function run(intent: string, form: FormData): Promise<AccountActionData> {
  switch (intent) {
    case 'revoke': {
      const sessionId = Number(text(form, 'sessionId'));
      await callApi(deleteSession, { params: { sessionId } });
      return { ok: true, message: 'La sessione è stata chiusa.' };
    }
    case 'revoke-others': {
      const { revoked } = await callApi(revokeOtherSessions, {});
      return {
        ok: true,
        message: revoked === 1 ? 'È stata chiusa 1 sessione.' : `Sono state chiuse ${revoked} sessioni.`,
      };
    }
    case TAX_CODE_INTENT: {
      const currentPassword = text(form, 'current_password');
      const parsed = UpdateProfileBodySchema.safeParse({
        taxCode: text(form, 'taxCode'),
        ...(currentPassword ? { current_password: currentPassword } : {}),
      });
      if (!parsed.success) return { errors: issuesToErrors(parsed.error.issues) };
      const profile = await callApi(updateAccountProfile, { body: parsed.data });
      return { ok: true, message: `Codice fiscale salvato: ${profile.taxCode ?? ''}.` };
    }
    case EMAIL_CHANGE_INTENT: {
      const parsed = EmailChangeBodySchema.safeParse({
        email: text(form, 'email'),
        current_password: text(form, 'current_password'),
      });
      if (!parsed.success) return { errors: issuesToErrors(parsed.error.issues) };
      return { ok: true, message: (await callApi(requestEmailChange, { body: parsed.data })).message };
    }
    case 'deletion-request': {
      const reason = text(form, 'reason').trim();
      const parsed = DeletionRequestBodySchema.safeParse(reason ? { reason } : {});
      if (!parsed.success) return { errors: issuesToErrors(parsed.error.issues) };
      const answer = await callApi(requestAccountDeletion, { body: parsed.data });
      return { ok: true, message: answer.message };
    }
    case UNLINK_IDENTITY_INTENT: {
      const provider = text(form, 'provider');
      if (provider !== 'cie' && provider !== 'spid') return { message: 'Identità non riconosciuta.' };
      await callApi(unlinkIdentity, { params: { provider } });
      return { ok: true, message: `L’identità ${provider.toUpperCase()} è stata scollegata.` };
    }
    default:
      return { message: 'Operazione non riconosciuta.' };
  }
}

export const action = intentAction(run);

export function Component() {
  const { sessions, taxCode, email, identities } = useLoaderData<AccountData>();
  const result = useActionData<AccountActionData>();
  const page = getPage('portal.account');
  const sessionResult =
    result?.intent === 'revoke' || result?.intent === 'revoke-others' ? result : undefined;
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      <FormMessage tone={sessionResult?.ok ? 'success' : 'danger'} message={sessionResult?.message} />
      <SessionsList sessions={sessions} />
      <EmailChange email={email} result={result?.intent === EMAIL_CHANGE_INTENT ? result : undefined} />
      <TaxCodeChange taxCode={taxCode} result={result?.intent === TAX_CODE_INTENT ? result : undefined} />
      <LinkedIdentitiesSection
        data={identities}
        result={result?.intent === UNLINK_IDENTITY_INTENT ? result : undefined}
      />
      <PersonalData result={result?.intent === 'deletion-request' ? result : undefined} />
    </>
  );
}
