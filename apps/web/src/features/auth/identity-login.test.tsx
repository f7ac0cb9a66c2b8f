import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cieStart } from '@portale/shared/identity';
import { callApi } from '../../lib/api-client.ts';
import { IdentityLogin } from './identity-login.tsx';

vi.mock('../../lib/api-client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/api-client.ts')>()),
  callApi: vi.fn(),
}));

const BOTH = { cie: true, spid: true, spidProviders: [{ id: 'https://idp.example', name: 'Gestore' }] };

describe('the identity buttons (component)', () => {
  afterEach(() => vi.clearAllMocks());

  it('on the login page: an h2 inviting to log in, SPID and CIE', async () => {
    vi.mocked(callApi).mockResolvedValue(BOTH);
    render(<IdentityLogin />);
    expect(
      (await screen.findByRole('heading', { level: 2, name: 'Accedi con la tua identità digitale' })).tagName,
    ).toBe('H2');
    expect(screen.getByRole('button', { name: 'Entra con SPID' })).toBeTruthy();
  });

  it('on the registration page: the same buttons under an h3 of the registration', async () => {
    vi.mocked(callApi).mockResolvedValue(BOTH);
    render(<IdentityLogin for="registration" />);
    expect(
      await screen.findByRole('heading', { level: 3, name: 'Registrati con la tua identità digitale' }),
    ).toBeTruthy();
    expect(screen.getByText(/arrivano già verificati/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Entra con SPID' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Entra con CIE' }).getAttribute('href')).toContain(cieStart.path);
  });

  it('nothing when neither provider is configured', async () => {
    vi.mocked(callApi).mockResolvedValue({ cie: false, spid: false, spidProviders: [] });
    const { container } = render(<IdentityLogin for="registration" />);
    await vi.waitFor(() => expect(callApi).toHaveBeenCalled());
    expect(container.innerHTML).toBe('');
  });
});
