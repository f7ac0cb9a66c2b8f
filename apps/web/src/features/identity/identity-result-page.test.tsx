import { render, screen } from '@testing-library/react';
import { createRoutesStub } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDENTITY_FAILURES, SPID_LOGOUT_FAILURES } from '@portale/shared/identity';
import { Component, loader } from './identity-result-page.tsx';

function renderPage(search: string) {
  const Stub = createRoutesStub([{ path: '/auth/identita', Component, loader, HydrateFallback: () => null }]);
  render(<Stub initialEntries={[`/auth/identita${search}`]} />);
}

describe('the CIE result page (component)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the Italian reason of a refused login, and asks the API nothing', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    renderPage('?esito=errore&codice=issuer_mismatch');
    expect((await screen.findByRole('alert')).textContent).toContain(IDENTITY_FAILURES.issuer_mismatch);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Accesso con CIE');
    expect(screen.getByText(/non è riuscito: non è stata aperta nessuna sessione/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Torna all’accesso' }).getAttribute('href')).toBe('/auth/login');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('an unknown or missing code gets the general message, never the code itself', async () => {
    renderPage('?esito=errore&codice=%3Cscript%3E');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('L’accesso con CIE non è riuscito.');
    expect(alert.textContent).not.toContain('script');
  });

  it('a failed return from the SPID logout: the Italian reason, the way home, and the API is not asked', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    renderPage('?esito=uscita&codice=logout_signature_invalid');
    expect((await screen.findByRole('alert')).textContent).toBe(
      SPID_LOGOUT_FAILURES.logout_signature_invalid,
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Uscita da SPID');
    expect(screen.getByRole('link', { name: 'Vai alla home' }).getAttribute('href')).toBe('/');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('an unknown logout code gets the general logout message, never the code itself', async () => {
    renderPage('?esito=uscita&codice=%3Cscript%3E');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(SPID_LOGOUT_FAILURES.logout_invalid);
  });
});
