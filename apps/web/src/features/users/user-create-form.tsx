import { useEffect, useRef } from 'react';
import { Form } from 'react-router';
import type { PermissionSubject } from '@portale/shared/auth';
import { TextField } from '../../components/form/text-field.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import type { FormResult } from '../../lib/form-data.ts';
import { AccessFields } from './user-access-fields.tsx';

/**
 * A new user: names, e-mail, roles and direct permissions. The API sends the invitation to choose a
 * password; the page of the new user opens once it is created.
 */
export function UserCreateForm({
  actor,
  result,
}: {
  actor: PermissionSubject;
  result: FormResult | undefined;
}) {
  const errors = result?.errors ?? {};
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <Form method="post" noValidate aria-labelledby="nuovo-utente-title" data-testid="user-create">
      <input type="hidden" name="intent" value="create" />
      <FormMessage message={result?.message} />
      <div className="row mt-3">
        <div className="col-12 col-md-6">
          <TextField
            innerRef={first}
            id="new-user-firstName"
            name="firstName"
            label="Nome"
            autoComplete="off"
            error={errors.firstName}
          />
        </div>
        <div className="col-12 col-md-6">
          <TextField
            id="new-user-lastName"
            name="lastName"
            label="Cognome"
            autoComplete="off"
            error={errors.lastName}
          />
        </div>
        <div className="col-12 col-md-6">
          <TextField
            id="new-user-email"
            name="email"
            type="email"
            label="E-mail"
            autoComplete="off"
            error={errors.email}
          />
        </div>
      </div>
      <AccessFields idPrefix="new-user" actor={actor} roles={[]} permissions={[]} errors={errors} />
      <p className="small">
        L’utente riceverà un’e-mail con il collegamento per scegliere la password (valido 7 giorni). La
        creazione è registrata nello storico.
      </p>
      <SubmitButton idle="Crea l’utente e invia l’invito" busy="Creazione in corso…" />
    </Form>
  );
}
