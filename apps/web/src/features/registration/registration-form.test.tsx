import { render, screen } from '@testing-library/react';
import { createRoutesStub } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PendingIdentity } from '@portale/shared/identity';
import { callApi } from '../../lib/api-client.ts';
import { RegistrationForm } from './registration-form.tsx';

vi.mock('../../lib/api-client.ts', async (original) => ({
  ...(await original<typeof import('../../lib/api-client.ts')>()),
  callApi: vi.fn(),
}));

const IDENTITY: PendingIdentity = {
  provider: 'spid',
  kind: 'register',
  firstName: 'Paola',
  lastName: 'Galli',
  taxCode: 'GLLPLA82D45L219X',
  accountEmailHint: null,
  email: 'paola.galli@example.it',
  phone: '+393331234567',
  codeAvailable: false,
  expiresAt: '2026-11-29T10:00:00.000Z',
};

function renderForm(search: string) {
  const Stub = createRoutesStub([
    { path: '/registrazione', Component: () => <RegistrationForm kind="insegnante" /> },
  ]);
  render(<Stub initialEntries={[`/registrazione${search}`]} />);
}

const field = (label: string | RegExp) => screen.getByLabelText(label) as HTMLInputElement;

describe('the registration form after SPID or CIE (component)', () => {
  afterEach(() => vi.mocked(callApi).mockReset());

  it('takes the verified name and codice fiscale, and offers the e-mail and phone SPID gave', async () => {
    vi.mocked(callApi).mockResolvedValue(IDENTITY);
    renderForm('?identita=spid');
    expect(await screen.findByText(/sono quelli verificati con SPID/)).toBeTruthy();
    expect(field(/^Nome/).value).toBe('Paola');
    expect(field(/^Nome/).readOnly).toBe(true);
    expect(field(/^Codice fiscale/).value).toBe('GLLPLA82D45L219X');
    expect(field(/^Indirizzo e-mail/).value).toBe('paola.galli@example.it');
    expect(field(/^Indirizzo e-mail/).readOnly).toBe(false);
    expect(field(/^Numero di cellulare/).value).toBe('+393331234567');
  });

  it('after CIE, asks for the e-mail the provider did not give', async () => {
    vi.mocked(callApi).mockResolvedValue({ ...IDENTITY, provider: 'cie', email: null, phone: null });
    renderForm('?identita=cie');
    expect(await screen.findByText(/la CIE non ha comunicato l’e-mail/)).toBeTruthy();
    expect(field(/^Indirizzo e-mail/).value).toBe('');
  });

  it('without the query asks the API nothing and everything is typed', () => {
    renderForm('?identita=altro');
    expect(callApi).not.toHaveBeenCalled();
    expect(field(/^Nome/).readOnly).toBe(false);
  });
});
