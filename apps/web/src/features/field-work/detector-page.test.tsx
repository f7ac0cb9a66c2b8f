import { render, screen, within } from '@testing-library/react';
import { createRoutesStub } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { DetectorOverview, Visit } from '@portale/shared/field-work';
import { Component } from './detector-page.tsx';

const NOW = Date.now();
const iso = (days: number) => new Date(NOW + days * 24 * 3600_000).toISOString();
const VISIT = {
  id: 41,
  schoolSiteId: 3,
  siteName: 'Plesso Garibaldi',
  siteCode: 'RMEE8AB01X',
  detector: { id: 5, firstName: 'Roberto', lastName: 'Rilevatore' },
  scheduledAt: '2026-11-20T09:00:00.000Z',
  endsAt: '2026-11-20T10:30:00.000Z',
  state: 'svolta',
  report: 'Fatto.',
  teachersMet: [],
  outcomeNote: null,
  reviewState: 'in_attesa',
  reviewNote: null,
  reviewFields: [],
  reportedAt: '2026-11-20T12:00:00.000Z',
  createdAt: '2026-11-01T09:00:00.000Z',
} as Visit;
const OVERVIEW: DetectorOverview = {
  detector: {
    id: 5,
    firstName: 'Roberto',
    lastName: 'Rilevatore',
    email: 'rilevatore@demo.test',
    phone: null,
    provinces: ['RM', 'PV'],
    active: true,
    siteCount: 12,
    nextVisitAt: null,
    unsentReports: 2,
    oldestUnsentAt: iso(-3),
    queueReportedAt: iso(0),
  },
  devices: [
    {
      deviceId: 'a1b2c3d4-0000-4000-8000-00000000abcd',
      unsent: 2,
      oldestUnsentAt: iso(-3),
      reportedAt: iso(0),
    },
  ],
  visits: [VISIT],
  conflicts: { open: 1, resolved: 2 },
};

describe('one detector for staff (issue 39)', () => {
  it('shows the devices’ queue, the conflicts with their link and the latest visits', async () => {
    const Stub = createRoutesStub([
      { path: '/portale/rilevatori/:userId', Component, loader: () => OVERVIEW },
    ]);
    render(<Stub initialEntries={['/portale/rilevatori/5']} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Roberto Rilevatore' })).toBeTruthy();
    expect(screen.getByText('2 report non inviati da 3 giorni')).toBeTruthy();
    const devices = screen.getByRole('table', { name: 'Dispositivi del rilevatore' });
    expect(within(devices).getByRole('rowheader').textContent).toBe('…00abcd');
    expect(screen.getByText(/1 da risolvere · 2 già risolti/)).toBeTruthy();
    expect(
      screen.getByRole('link', { name: 'Apri i conflitti di Roberto Rilevatore' }).getAttribute('href'),
    ).toBe('/portale/rilevatori/conflitti?detectorId=5');
    const visits = screen.getByRole('table', { name: /Le ultime visite/ });
    expect(within(visits).getByRole('rowheader').textContent).toBe('Plesso Garibaldi (RMEE8AB01X)');
    expect(within(visits).getByText('Svolta')).toBeTruthy();
  });
});
