import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createVisit,
  reportVisit,
  VISIT_MESSAGES,
  type SiteTeacher,
  type Visit,
} from '@portale/shared/field-work';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { INVALID_FORM_MESSAGE } from '../../lib/form-action.ts';
import { renderRoute } from '../../test/render-route.tsx';
import { action, Component } from './site-visits-page.tsx';

vi.mock('../../lib/api-client.ts', async (original) => ({
  ...(await original<typeof import('../../lib/api-client.ts')>()),
  callApi: vi.fn(),
}));
// The device's store (IndexedDB) is the offline journeys' business: here no draft, nothing queued.
vi.mock('./offline/offline-reports-panel.tsx', () => ({ default: () => null }));
vi.mock('./offline/detector-report-queue.ts', () => ({
  detectorReportQueue: async () => ({
    draftOf: async () => undefined,
    saveDraft: async () => ({ clientReportId: 'draft-1' }),
    markSent: async () => undefined,
  }),
}));

afterEach(() => vi.mocked(callApi).mockReset());

/** A planned visit whose day has come: its report form is open. */
const VISIT = {
  id: 41,
  schoolSiteId: 3,
  siteName: 'Plesso Garibaldi',
  siteCode: 'RMEE8AB01X',
  detector: { id: 5, firstName: 'Roberto', lastName: 'Rilevatore' },
  scheduledAt: '2026-11-20T09:00:00.000Z',
  endsAt: '2026-11-20T10:30:00.000Z',
  state: 'pianificata',
  report: null,
  teachersMet: [],
  outcomeNote: null,
  reviewState: null,
  reviewNote: null,
  reviewFields: [],
  reportedAt: null,
  createdAt: '2026-11-01T09:00:00.000Z',
} as Visit;

const TEACHER = {
  userId: 60,
  firstName: 'Ines',
  lastName: 'Insegnante',
  email: 'ines@esempio.it',
  phone: null,
  kind: 'insegnante',
  subjects: [],
  reviewState: 'approvata',
} as SiteTeacher;

const SITE = {
  id: 3,
  ministryCode: 'RMEE8AB01X',
  name: 'Plesso Garibaldi',
  schoolLevel: 'primaria',
  address: 'Via Roma 1',
  postalCode: '00100',
  municipalityName: 'Roma',
  province: 'RM',
  region: 'Lazio',
  instituteName: 'IC Gianni Rodari',
  participating: true,
  detector: VISIT.detector,
  teacherCount: 1,
  nextVisitAt: null,
};

const renderPage = () =>
  renderRoute(
    {
      path: '/portale/plessi/:siteId/visite',
      Component,
      loader: () => ({ site: SITE, teachers: [TEACHER], items: [VISIT] }),
      action,
    },
    '/portale/plessi/3/visite',
  );

/** The error texts tied to a control or a group by its aria-describedby. */
function errorOf(control: HTMLElement): string {
  const ids = (control.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter((id) => id.endsWith('-error'));
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

/**
 * Kind: a page with several forms, each naming its `intent` (a plan, a visit's report). The API's 422
 * goes next to the field it names: the date of a plan, the report's text and the teachers met.
 */
describe('visits of a plesso: the API’s 422 by its field (component)', () => {
  it('puts a refused report’s teachers met and text next to the group and the field', async () => {
    vi.mocked(callApi).mockRejectedValue(
      new ApiError(422, INVALID_FORM_MESSAGE, {
        errors: {
          report: ['Il resoconto è troppo breve.'],
          teachersMet: ['Ines Insegnante non insegna in questo plesso.'],
        },
      }),
    );
    renderPage();
    const form = await screen.findByRole('form', { name: /^Resoconto della visita del / });
    await userEvent.type(within(form).getByLabelText('Resoconto della visita'), 'Visita svolta.');
    await userEvent.click(within(form).getByRole('checkbox', { name: 'Ines Insegnante' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Invia il resoconto' }));
    const group = within(form).getByRole('group', { name: 'Insegnanti incontrati' });
    await vi.waitFor(() => expect(errorOf(group)).toBe('Ines Insegnante non insegna in questo plesso.'));
    expect(within(form).getByRole('checkbox', { name: 'Ines Insegnante' }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    const report = within(form).getByLabelText('Resoconto della visita');
    expect(report.getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(report)).toBe('Il resoconto è troppo breve.');
    expect(screen.getByText(INVALID_FORM_MESSAGE, { selector: '.alert-danger' })).toBeTruthy();
    expect(vi.mocked(callApi)).toHaveBeenCalledWith(reportVisit, {
      params: { visitId: 41 },
      body: { report: 'Visita svolta.', teachersMet: [60] },
    });
  });

  it('puts a refused plan’s date next to the date field', async () => {
    vi.mocked(callApi).mockRejectedValue(
      new ApiError(422, INVALID_FORM_MESSAGE, { errors: { scheduledAt: [VISIT_MESSAGES.future] } }),
    );
    renderPage();
    const date = await screen.findByLabelText('Data e ora (ora italiana)');
    await userEvent.type(date, '2026-01-10T09:00');
    await userEvent.click(screen.getByRole('button', { name: 'Pianifica' }));
    await vi.waitFor(() => expect(date.getAttribute('aria-invalid')).toBe('true'));
    expect(errorOf(date)).toBe(VISIT_MESSAGES.future);
    expect(vi.mocked(callApi)).toHaveBeenCalledWith(createVisit, {
      params: { siteId: 3 },
      body: { scheduledAt: '2026-01-10T09:00' },
    });
  });
});
