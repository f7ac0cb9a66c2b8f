import { cleanup, render, screen } from '@testing-library/react';
import { createRoutesStub } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDENTITY_FAILURES, SPID_LOGOUT_FAILURES, type PendingIdentity } from '@portale/shared/identity';
import { mayHavePendingIdentity, rememberRegistrationPage } from '../../lib/identity-marks.ts';
import { Component, loader } from './identity-result-page.tsx';

function renderPage(search: string, load: typeof loader = loader) {
  const Stub = createRoutesStub([
    { path: '/auth/identita', Component, loader: load, HydrateFallback: () => null },
  ]);
  render(<Stub initialEntries={[`/auth/identita${search}`]} />);
}

const pending = (overrides: Partial<PendingIdentity>): PendingIdentity => ({
  provider: 'spid',
  kind: 'register',
  firstName: 'Paola',
  lastName: 'Galli',
  taxCode: 'GLLPLA82D45L219X',
  accountEmailHint: null,
  email: null,
  phone: null,
  codeAvailable: false,
  expiresAt: '2026-11-29T10:00:00.000Z',
  ...overrides,
});

describe('the SPID/CIE result page (component)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the Italian reason of a refused login, and asks the API nothing', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    renderPage('?esito=errore&codice=issuer_mismatch');
    expect((await screen.findByRole('alert')).textContent).toContain(IDENTITY_FAILURES.issuer_mismatch);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Accesso con SPID o CIE');
    expect(screen.getByText(/non è riuscito: non è stata aperta nessuna sessione/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Torna all’accesso' }).getAttribute('href')).toBe('/auth/login');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('an unknown or missing code gets the general message, never the code itself', async () => {
    renderPage('?esito=errore&codice=%3Cscript%3E');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('L’accesso con SPID o CIE non è riuscito.');
    expect(alert.textContent).not.toContain('script');
  });

  it('speaks of the provider the person came from, and offers the e-mail SPID gave', async () => {
    renderPage('?esito=registrazione', async () => ({
      kind: 'pending',
      pending: pending({ email: 'paola.galli@example.it', phone: '+393331234567' }),
    }));
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Crea l’account');
    expect(
      screen.getByText(/userà l’indirizzo e-mail comunicato da SPID \(paola\.galli@example\.it\)/),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Crea l’account' }).getAttribute('href')).toBe(
      '/landing/registrazioni/insegnante?identita=spid#registrazione',
    );
  });

  it('leads the registration offer back to the kind of registration the person was on', async () => {
    rememberRegistrationPage('landing.registration.educator');
    renderPage('?esito=registrazione', async () => ({ kind: 'pending', pending: pending({}) }));
    expect((await screen.findByRole('link', { name: 'Crea l’account' })).getAttribute('href')).toBe(
      '/landing/registrazioni/educatore?identita=spid#registrazione',
    );
    sessionStorage.clear();
  });

  it('remembers that a verified identity waits (for the enrolment) until it expires', async () => {
    const until = new Date(Date.now() + 600_000).toISOString();
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(JSON.stringify(pending({ expiresAt: until })), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(mayHavePendingIdentity()).toBe(false);
    renderPage('?esito=registrazione');
    await screen.findByRole('link', { name: 'Crea l’account' });
    expect(mayHavePendingIdentity()).toBe(true);
    expect(mayHavePendingIdentity(Date.parse(until) + 1)).toBe(false);
    sessionStorage.clear();
  });

  it('with CIE: no e-mail is given, and the link asks for the account’s password', async () => {
    renderPage('?esito=registrazione', async () => ({
      kind: 'pending',
      pending: pending({ provider: 'cie' }),
    }));
    expect(
      await screen.findByText(
        'La CIE non ha comunicato l’indirizzo e-mail: lo inserirai nella registrazione.',
      ),
    ).toBeTruthy();
    cleanup();
    renderPage('?esito=collega', async () => ({
      kind: 'pending',
      pending: pending({ provider: 'cie', kind: 'link', accountEmailHint: 'p***@scuola.it' }),
    }));
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(
      'Collega la CIE al tuo account',
    );
    expect(screen.getByText(/verificato con CIE e potrai entrare anche solo con la CIE/)).toBeTruthy();
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
