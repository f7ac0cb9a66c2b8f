import { render, screen } from '@testing-library/react';
import { createRoutesStub } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callApi } from '../lib/api-client.ts';
import { Component } from './enrolment-page.tsx';

vi.mock('../lib/api-client.ts', async (original) => ({
  ...(await original<typeof import('../lib/api-client.ts')>()),
  callApi: vi.fn(),
}));

function renderAt(data: unknown) {
  const Stub = createRoutesStub([
    { path: '/iscrizioni/iscrizione', Component, loader: () => data, HydrateFallback: () => null },
  ]);
  render(<Stub initialEntries={['/iscrizioni/iscrizione']} />);
}

describe('the enrolment with SPID/CIE (component)', () => {
  afterEach(() => vi.mocked(callApi).mockReset());

  it('offers "Iscrivi la scuola con SPID o CIE" under the phone step when the providers are on', async () => {
    vi.mocked(callApi).mockResolvedValue({ cie: true, spid: false, spidProviders: [], testProviders: false });
    renderAt({ step: 'phone' });
    expect(await screen.findByRole('heading', { name: 'Iscrivi la scuola con SPID o CIE' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Entra con CIE' })).toBeTruthy();
    expect(screen.getByLabelText(/Numero di cellulare/)).toBeTruthy();
  });

  it('says nothing of SPID/CIE when they are off', async () => {
    vi.mocked(callApi).mockResolvedValue({
      cie: false,
      spid: false,
      spidProviders: [],
      testProviders: false,
    });
    renderAt({ step: 'phone' });
    expect(await screen.findByLabelText(/Numero di cellulare/)).toBeTruthy();
    await vi.waitFor(() => expect(callApi).toHaveBeenCalled());
    expect(screen.queryByRole('heading', { name: 'Iscrivi la scuola con SPID o CIE' })).toBeNull();
  });
});
