import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { spidStart } from '@portale/shared/identity';
import { SpidLoginButton } from './spid-login-button.tsx';

const PROVIDERS = [
  { id: 'https://idp-uno.example', name: 'Gestore Uno' },
  { id: 'https://idp-due.example', name: 'Gestore Due' },
];

describe('the SPID button (component)', () => {
  it('is a disclosure: closed, opened by the button, listing the providers as links to the start', async () => {
    const user = userEvent.setup();
    render(<SpidLoginButton providers={PROVIDERS} />);
    const button = screen.getByRole('button', { name: 'Entra con SPID' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('link', { name: 'Gestore Uno' })).toBeNull();
    await user.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const link = screen.getByRole('link', { name: 'Gestore Uno' });
    expect(link.getAttribute('href')).toContain(
      `${spidStart.path}?idp=${encodeURIComponent('https://idp-uno.example')}`,
    );
    expect(screen.getByRole('link', { name: 'Gestore Due' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Non hai SPID\?/ })).toBeTruthy();
  });

  it('closes with Escape and gives the focus back to the button', async () => {
    const user = userEvent.setup();
    render(<SpidLoginButton providers={PROVIDERS} />);
    const button = screen.getByRole('button', { name: 'Entra con SPID' });
    await user.click(button);
    await user.tab();
    expect(document.activeElement?.tagName).toBe('A');
    await user.keyboard('{Escape}');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });
});
