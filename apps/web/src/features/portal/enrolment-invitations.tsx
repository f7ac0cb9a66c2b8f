import { Form, useActionData, useNavigation } from 'react-router';
import { ROLE_LABELS } from '@portale/shared/auth';
import {
  acceptEnrolmentInvitation,
  declineEnrolmentInvitation,
  listEnrolmentInvitations,
  type EnrolmentInvitation,
} from '@portale/shared/enrolment';
import { Button } from 'design-react-kit';
import { FormMessage } from '../../components/form/form-message.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { orFailure, text, type FormResult } from '../../lib/form-data.ts';
import { formatDate } from '../../lib/format.ts';
import { reloadUser } from '../../lib/session.ts';

/** The intent of the invitation forms among the home's forms. */
export const INVITATION_INTENT = 'enrolment-invitation';

export type InvitationsResult =
  { items: EnrolmentInvitation[]; problem: null } | { items: []; problem: string };

/** The signed-in user's pending invitations (any role may have one). */
export async function loadInvitations(signal: AbortSignal): Promise<InvitationsResult> {
  try {
    return { items: (await callApi(listEnrolmentInvitations, {}, { signal })).items, problem: null };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 401) throw error;
    return {
      items: [],
      problem:
        'Gli inviti a collegarti a un istituto non sono disponibili in questo momento. Riprova più tardi.',
    };
  }
}

/** Accepts or declines one invitation; after an acceptance the session's roles are read again. */
export async function invitationAction(form: FormData): Promise<FormResult & { intent: string }> {
  const invitationId = Number(text(form, 'invitationId'));
  const endpoint =
    text(form, 'decision') === 'accept' ? acceptEnrolmentInvitation : declineEnrolmentInvitation;
  const outcome = await orFailure(() => callApi(endpoint, { params: { invitationId } }));
  if (!('invitation' in outcome)) return { intent: INVITATION_INTENT, ...outcome };
  if (outcome.invitation.state === 'accettato') await reloadUser();
  return { intent: INVITATION_INTENT, ok: true, message: outcome.message };
}

const rolesOf = (invitation: EnrolmentInvitation) => invitation.roles.map((r) => ROLE_LABELS[r]).join(' e ');

/**
 * The notice of the invitations an enrolment sent to this account (issue 32): nothing changes on the
 * account until the person accepts here; the codice fiscale of the enrolment must be theirs.
 */
export function EnrolmentInvitations({ items }: { items: EnrolmentInvitation[] }) {
  const result = useActionData<(FormResult & { intent?: string }) | null>();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === INVITATION_INTENT;
  const mine = result?.intent === INVITATION_INTENT ? result : undefined;
  if (items.length === 0 && !mine) return null;
  return (
    <section aria-labelledby="inviti" className="mb-5">
      <h2 id="inviti" className="h4">
        Inviti a collegarti a un istituto
      </h2>
      <FormMessage tone={mine?.ok ? 'success' : 'danger'} message={mine?.message} />
      {items.map((invitation) => (
        <div key={invitation.id} className="callout note mb-3" data-testid="enrolment-invitation">
          {invitation.kind === 'passaggio' ? (
            <p>
              Sei indicato come nuovo <strong>{rolesOf(invitation)}</strong> dell’istituto{' '}
              <strong>{invitation.instituteName}</strong> ({invitation.ministryCode}): accettando subentri a
              chi ricopre ora il ruolo, che non avrà più accesso all’istituto. Accetta solo se il ruolo è tuo.
              L’invito si può accettare se il codice fiscale indicato è quello del tuo profilo e vale fino al{' '}
              {formatDate(invitation.expiresAt)}.
            </p>
          ) : (
            <p>
              L’istituto <strong>{invitation.instituteName}</strong> ({invitation.ministryCode}) è stato
              iscritto al programma e chi lo ha iscritto ti ha indicato come{' '}
              <strong>{rolesOf(invitation)}</strong>. Il tuo account non è stato modificato: accetta solo se
              il ruolo è tuo. L’invito si può accettare se il codice fiscale indicato nell’iscrizione è quello
              del tuo profilo e vale fino al {formatDate(invitation.expiresAt)}.
            </p>
          )}
          <Form method="post" className="d-inline me-2">
            <input type="hidden" name="intent" value={INVITATION_INTENT} />
            <input type="hidden" name="invitationId" value={invitation.id} />
            <Button
              type="submit"
              name="decision"
              value="accept"
              color="primary"
              className="me-2"
              disabled={busy}
            >
              Accetta l’invito
            </Button>
            <Button type="submit" name="decision" value="decline" color="primary" outline disabled={busy}>
              Rifiuta
            </Button>
          </Form>
        </div>
      ))}
    </section>
  );
}
