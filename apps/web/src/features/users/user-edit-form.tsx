import { Form } from 'react-router';
import type { PermissionSubject } from '@portale/shared/auth';
import type { UserDetail } from '@portale/shared/users';
import { TextField } from '../../components/form/text-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { AccessFields } from './user-access-fields.tsx';

/**
 * Names, roles and direct permissions of a user; the e-mail is the login and is not changed here. On
 * one's own account only the names: roles and permissions are given by someone else (API 403).
 */
export function UserEditForm({
  user,
  actor,
  errors,
}: {
  user: UserDetail;
  actor: PermissionSubject;
  errors: Record<string, string>;
}) {
  const isSelf = actor.id === user.id;
  return (
    <Form method="post" noValidate preventScrollReset aria-labelledby="ruoli-title" data-testid="user-edit">
      <input type="hidden" name="intent" value="update" />
      <div className="row mt-3">
        <div className="col-12 col-md-6">
          <TextField
            id="user-firstName"
            name="firstName"
            label="Nome"
            autoComplete="off"
            defaultValue={user.firstName}
            error={errors.firstName}
          />
        </div>
        <div className="col-12 col-md-6">
          <TextField
            id="user-lastName"
            name="lastName"
            label="Cognome"
            autoComplete="off"
            defaultValue={user.lastName}
            error={errors.lastName}
          />
        </div>
        <div className="col-12 col-md-6">
          <TextField
            id="user-email"
            name="email"
            type="email"
            label="E-mail"
            autoComplete="off"
            defaultValue={user.email}
            error={errors.email}
            hint="Se la correggi, il nuovo indirizzo va confermato di nuovo e il vecchio riceve un avviso."
          />
        </div>
        <div className="col-12 col-md-6">
          <TextField
            id="user-phone"
            name="phone"
            type="tel"
            label="Cellulare"
            autoComplete="off"
            defaultValue={user.phone ?? ''}
            error={errors.phone}
            hint="Se lo correggi, va confermato di nuovo con un codice via SMS al prossimo accesso."
          />
        </div>
      </div>
      {isSelf ? (
        <p className="small text-muted" data-testid="user-self-access">
          Non puoi modificare i tuoi ruoli o i tuoi permessi: deve farlo un altro amministratore.
        </p>
      ) : (
        <>
          <input type="hidden" name="access" value="1" />
          <AccessFields
            idPrefix="user"
            actor={actor}
            roles={user.roles}
            permissions={user.permissions}
            errors={errors}
          />
        </>
      )}
      <SubmitButton
        idle={isSelf ? 'Salva nome' : 'Salva nome, ruoli e permessi'}
        busy="Salvataggio in corso…"
      />
    </Form>
  );
}
