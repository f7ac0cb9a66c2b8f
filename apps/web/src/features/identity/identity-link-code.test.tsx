import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRoutesStub } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { requestIdentityLinkCode, type PendingIdentity } from '@portale/shared/identity';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { linkProviderIdentity } from '../../lib/session.ts';
import { action, Component } from './identity-result-page.tsx';

vi.mock('../../lib/api-client.ts', async (original) => ({
  ...(await original<typeof import('../../lib/api-client.ts')>()),
  callApi: vi.fn(),
}));
vi.mock('../../lib/session.ts', () => ({ linkProviderIdentity: vi.fn(), adoptProviderSession: vi.fn() }));

const PENDING: PendingIdentity = {
  provider: 'spid',
  kind: 'link',
  firstName: 'Paola',
  lastName: 'Galli',
  taxCode: 'GLLPLA82D45L219X',
  accountEmailHint: 'p***@scuola.it',
  email: null,
  phone: null,
  codeAvailable: true,
  expiresAt: '2026-11-29T10:00:00.000Z',
};

function renderPage(pending: PendingIdentity) {
  const Stub = createRoutesStub([
    {
      path: '/auth/identita',
      Component,
      loader: () => ({ kind: 'pending', pending }),
      action,
      HydrateFallback: () => null,
    },
    { path: '/portale', Component: () => <h1>Portale</h1> },
  ]);
  render(<Stub initialEntries={['/auth/identita?esito=collega']} />);
}

describe('linking SPID/CIE with a code to the account’s e-mail (component)', () => {
  afterEach(() => vi.resetAllMocks());

  it('sends the code, takes it, and links: the person lands on the portal', async () => {
    const user = userEvent.setup();
    vi.mocked(callApi).mockResolvedValue({ sentTo: 'p***@scuola.it', validMinutes: 10 });
    vi.mocked(linkProviderIdentity).mockResolvedValue({} as never);
    renderPage(PENDING);
    expect(await screen.findByRole('heading', { name: 'Collega SPID al tuo account' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Invia il codice per e-mail' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Codice inviato a p***@scuola.it: vale 10 minuti.',
    );
    expect(callApi).toHaveBeenCalledWith(requestIdentityLinkCode, {});
    await user.type(screen.getByLabelText(/Codice ricevuto per e-mail/), '123456');
    await user.click(screen.getByRole('button', { name: 'Collega con il codice' }));
    expect(await screen.findByRole('heading', { name: 'Portale' })).toBeTruthy();
    expect(linkProviderIdentity).toHaveBeenCalledWith({ code: '123456' });
  });

  it('a refused code keeps the code step open with the API’s Italian reason', async () => {
    const user = userEvent.setup();
    vi.mocked(callApi).mockResolvedValue({ sentTo: 'p***@scuola.it', validMinutes: 10 });
    vi.mocked(linkProviderIdentity).mockRejectedValue(
      new ApiError(422, 'Il codice non è corretto. Tentativi rimasti: 4.'),
    );
    renderPage(PENDING);
    await user.click(await screen.findByRole('button', { name: 'Invia il codice per e-mail' }));
    await user.type(await screen.findByLabelText(/Codice ricevuto per e-mail/), '000000');
    await user.click(screen.getByRole('button', { name: 'Collega con il codice' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Il codice non è corretto. Tentativi rimasti: 4.',
    );
    expect(screen.getByRole('button', { name: 'Invia un nuovo codice' })).toBeTruthy();
  });

  it('without a confirmed e-mail only the password and the reset link are offered', async () => {
    renderPage({ ...PENDING, provider: 'cie', codeAvailable: false });
    expect(await screen.findByRole('heading', { name: 'Collega la CIE al tuo account' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Invia il codice per e-mail' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Non ricordi la password?' })).toBeTruthy();
  });
});
