import { useId } from 'react';
import { Form, useNavigation } from 'react-router';
import { can, type PermissionSubject } from '@portale/shared/auth';
import {
  cancelHandover,
  createHandover,
  ENROLMENT_INVITATION_STATE_LABELS,
  HANDOVER_ROLE_LABELS,
  listHandovers,
  type HandoverInvitation,
} from '@portale/shared/enrolment';
import type { InstituteDetail } from '@portale/shared/registry';
import { Button } from 'design-react-kit';
import { ChoiceField } from '../../components/form/choice-field.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { TextField } from '../../components/form/text-field.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { orFailure, text, type FormResult } from '../../lib/form-data.ts';
import { formatDate } from '../../lib/format.ts';

export const HANDOVER_INTENT = 'handover';
export const HANDOVER_CANCEL_INTENT = 'handover-cancel';

/** The institute's handovers, or `null` when the caller may not read them (or they are not available). */
export async function loadHandovers(instituteId: number, signal: AbortSignal) {
  try {
    return (await callApi(listHandovers, { params: { instituteId } }, { signal })).items;
  } catch (error) {
    if (error instanceof ApiError && error.status !== 401) return null;
    throw error;
  }
}

/** Starts or cancels a handover (decision 047); the API checks who may. */
export async function handoverAction(
  intent: string,
  form: FormData,
  instituteId: number,
): Promise<FormResult & { intent: string }> {
  if (intent === HANDOVER_CANCEL_INTENT) {
    const invitationId = Number(text(form, 'invitationId'));
    const outcome = await orFailure(() => callApi(cancelHandover, { params: { instituteId, invitationId } }));
    if ('invitation' in outcome) return { intent, ok: true, message: outcome.message };
    return { intent, ...outcome };
  }
  const outcome = await orFailure(() =>
    callApi(createHandover, {
      params: { instituteId },
      body: {
        role: text(form, 'role') as 'school.principal',
        firstName: text(form, 'firstName'),
        lastName: text(form, 'lastName'),
        email: text(form, 'email'),
        taxCode: text(form, 'taxCode'),
      },
    }),
  );
  if ('invitation' in outcome) return { intent, ok: true, message: outcome.message };
  return { intent, ...outcome };
}

/**
 * A new principal or first contact (decision 047): the pending invitations, and for whoever may the
 * form that invites the person who takes the place when they accept. Staff who manage institutes name
 * either; the principal names a first contact.
 */
export function InstituteHandover({
  institute,
  items,
  user,
  result,
}: {
  institute: Pick<InstituteDetail, 'principal' | 'adhesionState'>;
  items: HandoverInvitation[];
  user: PermissionSubject | null;
  result: (FormResult & { intent?: string }) | undefined;
}) {
  const id = useId();
  const navigation = useNavigation();
  const intent = navigation.formData?.get('intent');
  const busy =
    navigation.state === 'submitting' && (intent === HANDOVER_INTENT || intent === HANDOVER_CANCEL_INTENT);
  const mine =
    result?.intent === HANDOVER_INTENT || result?.intent === HANDOVER_CANCEL_INTENT ? result : undefined;
  const errors = mine?.intent === HANDOVER_INTENT ? (mine.errors ?? {}) : {};
  const staff = can(user, 'manage:institute');
  const mayInvite =
    can(user, 'manage:institute', { ownerUserIds: [institute.principal?.id] }) &&
    !['nessuna', 'respinto', 'ritirato'].includes(institute.adhesionState);
  const roles = staff
    ? (['school.principal', 'institute.first-contact'] as const)
    : (['institute.first-contact'] as const);
  const mayCancel = (item: HandoverInvitation) =>
    item.state === 'in_attesa' && (staff || (mayInvite && item.role === 'institute.first-contact'));
  return (
    <div data-testid="handover">
      <h3 id={`${id}-title`} className="h5">
        Nuovo dirigente o referente
      </h3>
      <p>
        All’inizio dell’anno scolastico il dirigente o il referente possono cambiare: la persona indicata
        riceve un invito per e-mail e subentra quando lo accetta dal portale. Chi ricopre ora il ruolo viene
        avvisato e non ha più accesso all’istituto; il suo account resta attivo. Un’adesione già firmata resta
        valida; se non è ancora firmata, la firma il nuovo dirigente.
      </p>
      {mine?.message && <FormMessage message={mine.message} tone={mine.ok ? 'success' : 'danger'} />}
      {items.length > 0 && (
        <div className="table-responsive-md">
          <table className="table data-table">
            <caption className="caption-top">Inviti a subentrare</caption>
            <thead>
              <tr>
                <th scope="col">Persona</th>
                <th scope="col">Ruolo</th>
                <th scope="col">Stato</th>
                <th scope="col">Scade il</th>
                <th scope="col">Azioni</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.id}>
                  <th scope="row" data-label="Persona" className="text-break">
                    {item.inviteeName} · {item.inviteeEmail}
                  </th>
                  <td data-label="Ruolo">{HANDOVER_ROLE_LABELS[item.role]}</td>
                  <td data-label="Stato">
                    {item.expired ? 'Scaduto' : ENROLMENT_INVITATION_STATE_LABELS[item.state]}
                  </td>
                  <td data-label="Scade il">{formatDate(item.expiresAt)}</td>
                  <td data-label="Azioni">
                    {mayCancel(item) ? (
                      <Form method="post" preventScrollReset>
                        <input type="hidden" name="intent" value={HANDOVER_CANCEL_INTENT} />
                        <input type="hidden" name="invitationId" value={item.id} />
                        <Button color="danger" outline size="sm" type="submit" disabled={busy}>
                          Annulla l’invito<span className="visually-hidden"> a {item.inviteeName}</span>
                        </Button>
                      </Form>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {mayInvite && (
        <Form
          method="post"
          preventScrollReset
          className="border rounded p-3 mt-3"
          aria-labelledby={`${id}-form`}
        >
          <h4 id={`${id}-form`} className="h6">
            Invita chi subentra
          </h4>
          <input type="hidden" name="intent" value={HANDOVER_INTENT} />
          <ChoiceField
            id={`${id}-role`}
            name="role"
            legend="Ruolo"
            legendClassName="h6 fw-normal"
            className="mb-4"
            options={roles.map((role) => ({ value: role, label: HANDOVER_ROLE_LABELS[role] }))}
            optionId={(_, index) => `${id}-role-${index}`}
            defaultValue={roles[0]}
            error={errors.role}
          />
          <TextField id={`${id}-firstName`} name="firstName" label="Nome" error={errors.firstName} required />
          <TextField id={`${id}-lastName`} name="lastName" label="Cognome" error={errors.lastName} required />
          <TextField
            id={`${id}-email`}
            name="email"
            type="email"
            label="E-mail personale"
            autoComplete="off"
            error={errors.email}
            required
          />
          <TextField
            id={`${id}-taxCode`}
            name="taxCode"
            label="Codice fiscale"
            autoComplete="off"
            error={errors.taxCode}
            required
          />
          <Button color="primary" type="submit" disabled={busy}>
            Invia l’invito
          </Button>
        </Form>
      )}
    </div>
  );
}
