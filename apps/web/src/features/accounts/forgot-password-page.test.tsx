import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRoutesStub } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { action, Component } from './forgot-password-page.tsx';

/** A form page (kind: a public form with an action), without a server. */
function renderPage() {
  const Stub = createRoutesStub([{ path: '/auth/forgot-password', Component, action }]);
  render(<Stub initialEntries={['/auth/forgot-password']} />);
}

describe('forgot-password page (component)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('an address that is not one is refused next to the field, in Italian, and nothing is sent', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    renderPage();
    const email = await screen.findByLabelText('Indirizzo e-mail');
    await userEvent.type(email, 'non-un-indirizzo');
    await userEvent.click(screen.getByRole('button', { name: 'Invia il collegamento' }));
    await vi.waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(email.getAttribute('aria-describedby')!)!.textContent).toBe(
      'Inserisci un indirizzo e-mail valido.',
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it('an empty address is refused the same way', async () => {
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Invia il collegamento' }));
    const email = screen.getByLabelText('Indirizzo e-mail');
    await vi.waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
  });
});
