import { render, screen } from '@testing-library/react';
import { createRoutesStub } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDENTITY_FAILURES } from '@portale/shared/identity';
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
});
