import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACTION_MESSAGES, type ActionDetail, type MyActionsResponse } from '@portale/shared/actions';
import { renderRoute } from '../../test/render-route.tsx';
import { DueActions } from './due-actions.tsx';
import { action } from './portal-home-page.tsx';

/**
 * Kind: a widget that changes data without leaving the page (here start/complete through a fetcher
 * posting to the portal home's own action; the router then reloads the page's data). The page's loader
 * data in, a refusal checked before anything is sent, the API stubbed at `fetch` (the browser's edge),
 * and the loader run again after a success.
 */
function renderWidget(data: MyActionsResponse) {
  const loads = vi.fn(() => data);
  const view = renderRoute({
    path: '/portale',
    Component: function Page() {
      return <DueActions data={data} />;
    },
    loader: loads,
    action,
  });
  return { ...view, loads };
}

const ACTION: ActionDetail = {
  id: 9,
  modelId: 2,
  modelTitle: 'Formazione dei docenti',
  category: 'formazione',
  evidence: 'testo',
  target: 'istituto',
  targetId: 41,
  targetName: 'IC Gianni Rodari',
  targetCode: 'RMIC8AB00X',
  region: 'Lazio',
  province: 'RM',
  dueOn: '2027-01-31',
  state: 'in_corso',
  overdue: true,
  completedAt: null,
  verifiedAt: null,
  createdAt: '2026-10-01T10:00:00.000Z',
  description: 'Un incontro di due ore con i docenti.',
  evidenceText: null,
  evidenceFile: null,
  staffNote: null,
  assignedBy: null,
  completedBy: null,
  verifiedBy: null,
  updatedAt: '2026-10-01T10:00:00.000Z',
} as ActionDetail;

describe('due actions widget (component)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('counts the open actions and the overdue ones', async () => {
    renderWidget({ open: [ACTION, { ...ACTION, id: 10, overdue: false }], done: [] });
    expect(await screen.findByText('Hai 2 azioni da svolgere, di cui 1 scaduta.')).toBeTruthy();
    expect(screen.getAllByTestId('due-action')).toHaveLength(2);
  });

  it('refuses to complete without the required text, next to the field, sending nothing', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    renderWidget({ open: [ACTION], done: [] });
    const form = await screen.findByRole('form', { name: 'Completa «Formazione dei docenti»' });
    await userEvent.click(within(form).getByRole('button', { name: 'Segna come completata' }));
    const text = within(form).getByLabelText('Descrivi quanto fatto (prova richiesta)');
    await vi.waitFor(() => expect(text.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(text.getAttribute('aria-describedby')!)?.textContent).toBe(
      ACTION_MESSAGES.evidenceText,
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it('starts an action, says so, and has the router load the page again', async () => {
    document.cookie = 'XSRF-TOKEN=test';
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => Response.json({ ...ACTION, state: 'in_corso' }));
    const { loads } = renderWidget({ open: [{ ...ACTION, state: 'da_fare' }], done: [] });
    await userEvent.click(await screen.findByRole('button', { name: 'Inizia' }));
    await vi.waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('«Formazione dei docenti» è in corso.'),
    );
    const [, init] = fetch.mock.calls.at(-1)!;
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ to: 'in_corso' });
    await vi.waitFor(() => expect(loads).toHaveBeenCalledTimes(2));
  });

  it('shows the API’s refusal of a start under the action, which stays to do', async () => {
    document.cookie = 'XSRF-TOKEN=test';
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      Response.json(
        { statusCode: 409, code: 'conflict', message: 'L’azione non è più da fare.' },
        { status: 409 },
      ),
    );
    renderWidget({ open: [{ ...ACTION, state: 'da_fare' }], done: [] });
    await userEvent.click(await screen.findByRole('button', { name: 'Inizia' }));
    const item = screen.getByTestId('due-action');
    await vi.waitFor(() =>
      expect(within(item).getByRole('alert').textContent).toBe('L’azione non è più da fare.'),
    );
    expect(screen.getByRole('status').textContent).toBe('');
    expect(within(item).getByRole('button', { name: 'Inizia' })).toBeTruthy();
  });

  it('puts the API’s 422 on a completion next to the proof, keeping what was typed', async () => {
    document.cookie = 'XSRF-TOKEN=test';
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      Response.json(
        {
          statusCode: 422,
          code: 'validation',
          message: 'Alcuni dati non sono validi.',
          errors: { evidenceText: ['La descrizione è troppo lunga.'] },
        },
        { status: 422 },
      ),
    );
    renderWidget({ open: [ACTION], done: [] });
    const form = await screen.findByRole('form', { name: 'Completa «Formazione dei docenti»' });
    const text = within(form).getByLabelText('Descrivi quanto fatto (prova richiesta)');
    await userEvent.type(text, 'Incontro svolto il 20 novembre.');
    await userEvent.click(within(form).getByRole('button', { name: 'Segna come completata' }));
    await vi.waitFor(() => expect(text.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(text.getAttribute('aria-describedby')!)?.textContent).toBe(
      'La descrizione è troppo lunga.',
    );
    const [, init] = fetch.mock.calls.at(-1)!;
    expect(JSON.parse(String(init?.body))).toEqual({
      to: 'completata',
      evidenceText: 'Incontro svolto il 20 novembre.',
    });
    expect((text as HTMLTextAreaElement).value).toBe('Incontro svolto il 20 novembre.');
  });
});
