import { useActionData, useLoaderData } from 'react-router';
import {
  DeletionRequestBodySchema,
  deleteSession,
  listSessions,
  requestAccountDeletion,
  revokeOtherSessions,
  type SessionInfo,
} from '@portale/shared/accounts';
import { getPage } from '@portale/shared/pages';
import { FormMessage } from '../../components/form-field.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { intentAction, issuesToErrors, text, type FormResult } from '../../lib/form-data.ts';
import { callApi } from '../../lib/api-client.ts';
import { PersonalData } from './personal-data.tsx';
import { SessionsList } from './sessions-list.tsx';

export type AccountActionData = FormResult & { intent?: string };

/** Own data of the page (not `/api/portal/pages/:id`): the user's active sessions. */
export async function pageData(): Promise<SessionInfo[]> {
  return (await callApi(listSessions, {})).items;
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
    case 'deletion-request': {
      const reason = text(form, 'reason').trim();
      const parsed = DeletionRequestBodySchema.safeParse(reason ? { reason } : {});
      if (!parsed.success) return { errors: issuesToErrors(parsed.error.issues) };
      const answer = await callApi(requestAccountDeletion, { body: parsed.data });
      return { ok: true, message: answer.message };
    }
    default:
      return { message: 'Operazione non riconosciuta.' };
  }
}

export const action = intentAction(run);

export function Component() {
  const sessions = useLoaderData<SessionInfo[]>();
  const result = useActionData<AccountActionData>();
  const page = getPage('portal.account');
  const sessionResult =
    result?.intent === 'revoke' || result?.intent === 'revoke-others' ? result : undefined;
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      <FormMessage tone={sessionResult?.ok ? 'success' : 'danger'} message={sessionResult?.message} />
      <SessionsList sessions={sessions} />
      <PersonalData result={result?.intent === 'deletion-request' ? result : undefined} />
    </>
  );
}
