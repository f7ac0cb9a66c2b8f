import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createRoutesStub } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@portale/shared/auth';
import { leaveFor } from '../lib/leave-site.ts';
import { AppHeader } from './app-header.tsx';

vi.mock('../lib/leave-site.ts', () => ({ leaveFor: vi.fn() }));

const user = { firstName: 'Paola', lastName: 'Galli' } as SessionUser;

function renderHeader(onLogout: () => Promise<string | null>) {
  const Stub = createRoutesStub([
    { path: '/portale', Component: () => <AppHeader user={user} onLogout={onLogout} /> },
    { path: '/', Component: () => <h1>Home</h1> },
  ]);
  render(<Stub initialEntries={['/portale']} />);
}

describe('the header’s logout (component)', () => {
  afterEach(() => vi.clearAllMocks());

  it('a password session: logs out and goes to the home page', async () => {
    const onLogout = vi.fn(async () => null);
    renderHeader(onLogout);
    fireEvent.click(screen.getByRole('button', { name: 'Esci' }));
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
    expect(onLogout).toHaveBeenCalledOnce();
    expect(leaveFor).not.toHaveBeenCalled();
  });

  it('a SPID session: the browser goes to the provider’s single logout URL the API answered', async () => {
    const url = 'https://idp.example.it/slo?SAMLRequest=abc&SigAlg=x&Signature=y';
    renderHeader(async () => url);
    fireEvent.click(screen.getByRole('button', { name: 'Esci' }));
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith(url));
    expect(screen.queryByRole('heading', { name: 'Home' })).toBeNull();
  });
});
