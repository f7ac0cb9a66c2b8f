import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRoutesStub, type LoaderFunctionArgs } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  listVisitPhotos,
  resolveVisitReportConflict,
  type VisitReportConflict,
} from '@portale/shared/field-work';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { action, Component } from './conflicts-page.tsx';

vi.mock('../../lib/api-client.ts', async (original) => ({
  ...(await original<typeof import('../../lib/api-client.ts')>()),
  callApi: vi.fn(),
}));

const ROBERTO = { id: 5, firstName: 'Roberto', lastName: 'Rilevatore' };
const ALDO = { id: 6, firstName: 'Aldo', lastName: 'Altro' };
const OPEN: VisitReportConflict = {
  clientReportId: '8d7c4a8e-3b0f-4e55-9f0e-3c2f4b1a0001',
  code: 'visit_reassigned',
  detector: ROBERTO,
  report: 'Visita svolta con la classe 3B.',
  teachersMet: [{ id: 9, firstName: 'Ida', lastName: 'Insegnante' }],
  visitState: 'pianificata',
  submittedAt: '2026-11-21T10:00:00.000Z',
  importedBy: { id: 2, firstName: 'Sara', lastName: 'Sylla' },
  visit: {
    id: 41,
    site: { id: 3, name: 'Plesso Garibaldi', ministryCode: 'RMEE8AB01X' },
    detector: ALDO,
    scheduledAt: '2026-11-20T09:00:00.000Z',
    state: 'svolta',
    outcomeNote: null,
    report: 'Il resoconto del nuovo rilevatore.',
    reviewState: 'in_attesa',
  },
  resolution: null,
};
const DONE: VisitReportConflict = {
  ...OPEN,
  clientReportId: '8d7c4a8e-3b0f-4e55-9f0e-3c2f4b1a0002',
  code: 'visit_changed',
  visit: { ...OPEN.visit, id: 42, state: 'annullata', report: null, outcomeNote: 'Scuola chiusa' },
  resolution: { decision: 'discarded', note: 'Doppione.', by: ALDO, at: '2026-11-22T08:00:00.000Z' },
};

/** Each card asks for its report's photos (none here); the other calls answer `other`. */
const answering = (other: () => unknown) =>
  (async (endpoint: unknown) => (endpoint === listVisitPhotos ? { items: [] } : other())) as never;

function renderPage(items: VisitReportConflict[], url = '/portale/rilevatori/conflitti') {
  const searches: string[] = [];
  const loader = ({ request }: LoaderFunctionArgs) => {
    const search = new URL(request.url).searchParams;
    searches.push(search.toString());
    return {
      query: Object.fromEntries(search),
      result: { items, total: items.length, page: 1, pageSize: 25 },
      problem: null,
      detectors: [{ ...ROBERTO }, { ...ALDO }],
    };
  };
  const Stub = createRoutesStub([{ path: '/portale/rilevatori/conflitti', Component, loader, action }]);
  render(<Stub initialEntries={[url]} />);
  return { searches };
}

describe('Conflitti da risolvere (issue 39)', () => {
  beforeEach(() => vi.mocked(callApi).mockImplementation(answering(() => undefined)));
  afterEach(() => vi.clearAllMocks());

  it('shows both versions side by side; a decided one shows the decision, not the form', async () => {
    renderPage([OPEN, DONE]);
    const [open, done] = await screen.findAllByRole('article');
    const device = within(open!).getByRole('region', { name: 'Versione del dispositivo' });
    expect(device.textContent).toContain('Visita svolta con la classe 3B.');
    expect(device.textContent).toContain('Roberto Rilevatore');
    expect(device.textContent).toContain('Ida Insegnante');
    const now = within(open!).getByRole('region', { name: 'La visita ora' });
    expect(now.textContent).toContain('Il resoconto del nuovo rilevatore.');
    expect(now.textContent).toContain('Aldo Altro');
    expect(within(open!).getByText('Visita di un altro rilevatore')).toBeTruthy();
    expect(within(open!).getByText(/importato da Sara Sylla/)).toBeTruthy();
    expect(within(done!).queryByRole('form')).toBeNull();
    expect(done!.textContent).toContain('Scartato da Aldo Altro');
    expect(done!.textContent).toContain('Nota: Scuola chiusa');
    expect(screen.getByTestId('conflicts-summary').textContent).toBe('2 conflitti trovati, pagina 1 di 1.');
    // The device's version with its own photos, a kept conflict's included (decision 061).
    await vi.waitFor(() =>
      expect(callApi).toHaveBeenCalledWith(listVisitPhotos, {
        params: { visitId: OPEN.visit.id },
        query: { clientReportId: OPEN.clientReportId },
      }),
    );
  });

  it('discarding sends the note; the API’s refusal is shown on the card', async () => {
    vi.mocked(callApi).mockImplementation(
      answering(() => {
        throw new ApiError(409, 'La visita ha già un resoconto: scarta questa versione.', {
          code: 'visit_reported',
        });
      }),
    );
    renderPage([OPEN]);
    const card = await screen.findByRole('article');
    await userEvent.click(within(card).getByRole('button', { name: 'Accetta il resoconto del dispositivo' }));
    expect(
      await within(card).findByText('La visita ha già un resoconto: scarta questa versione.'),
    ).toBeTruthy();
    expect(callApi).toHaveBeenCalledWith(resolveVisitReportConflict, {
      params: { clientReportId: OPEN.clientReportId },
      body: { decision: 'accept' },
    });

    vi.mocked(callApi).mockImplementation(answering(() => ({ ...OPEN, resolution: {} })));
    await userEvent.type(within(card).getByLabelText('Nota (obbligatoria per scartare)'), 'Svolta da Aldo.');
    await userEvent.click(within(card).getByRole('button', { name: 'Scarta con la nota' }));
    expect(await within(card).findByText(/Resoconto scartato/)).toBeTruthy();
    expect(callApi).toHaveBeenLastCalledWith(resolveVisitReportConflict, {
      params: { clientReportId: OPEN.clientReportId },
      body: { decision: 'discard', note: 'Svolta da Aldo.' },
    });
  });

  it('filters live in the URL', async () => {
    const { searches } = renderPage([], '/portale/rilevatori/conflitti?state=resolved&code=visit_changed');
    expect(await screen.findByText('Nessun conflitto corrisponde ai filtri.')).toBeTruthy();
    expect((screen.getByLabelText('Stato') as HTMLSelectElement).value).toBe('resolved');
    const filters = screen.getByRole('search');
    await userEvent.selectOptions(within(filters).getByLabelText('Rilevatore'), '6');
    await userEvent.click(within(filters).getByRole('button', { name: 'Applica i filtri' }));
    await vi.waitFor(() => expect(searches.at(-1)).toContain('detectorId=6'));
    expect(searches.at(-1)).toContain('state=resolved');
  });
});
