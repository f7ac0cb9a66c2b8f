import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { getPage } from '@portale/shared/pages';
import type { InstituteSummary } from '@portale/shared/registry';
import { listFixture, renderRoute } from '../../test/render-route.tsx';
import { Component } from './institute-list-page.tsx';

/** Kind: a list page. New list pages copy this: a fixture loader in `loadList`'s shape, no server. */
const renderPage = (items: InstituteSummary[], url = '/portale/istituti') =>
  renderRoute({ path: '/portale/istituti', Component, loader: listFixture(items) }, url);

const RODARI: InstituteSummary = {
  id: 41,
  ministryCode: 'RMIC8AB00X',
  name: 'IC Gianni Rodari',
  type: 'Istituto comprensivo',
  isStateSchool: true,
  region: 'Lazio',
  province: 'RM',
  municipalityName: 'Roma',
  adhesionState: 'iscritto',
  adhesionStateChangedAt: '2026-10-01T10:00:00.000Z',
  schoolSiteCount: 1234,
};

describe('institutes list page (component)', () => {
  it('shows each institute as a row: code, linked name, type and site count', async () => {
    renderPage([
      RODARI,
      { ...RODARI, id: 42, ministryCode: 'MIPS01000A', name: 'Liceo Volta', isStateSchool: false },
    ]);
    expect(
      await screen.findByRole('heading', { level: 1, name: getPage('portal.institutes').title }),
    ).toBeTruthy();
    expect(screen.getByTestId('list-status').textContent).toMatch(/^2 istituti trovati/);
    const row = screen.getByRole('link', { name: 'IC Gianni Rodari' }).closest('tr')!;
    expect(row.querySelector('a')!.getAttribute('href')).toBe('/portale/istituti/41');
    expect(within(row).getByText('RMIC8AB00X')).toBeTruthy();
    expect(within(row).getByText('Statale')).toBeTruthy();
    expect(within(row).getByText('1.234')).toBeTruthy();
    const other = screen.getByRole('link', { name: 'Liceo Volta' }).closest('tr')!;
    expect(within(other).getByText('Paritaria')).toBeTruthy();
  });

  it('puts a search into the URL the loader reads, and says when nothing matches', async () => {
    const { searches } = renderPage([]);
    const filters = await screen.findByRole('search');
    await userEvent.type(within(filters).getByRole('searchbox'), 'rodari');
    await userEvent.click(within(filters).getByRole('button', { name: 'Applica i filtri' }));
    await vi.waitFor(() => expect(searches.at(-1)).toBe('q=rodari'));
    await vi.waitFor(() => expect(screen.getByTestId('list-status').textContent).toMatch(/^0 istituti/));
  });
});
