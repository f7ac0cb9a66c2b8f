import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSlot } from '@portale/shared/bookings';
import { INVALID_FORM_MESSAGE } from '../../lib/form-action.ts';
import { listFixture, renderRoute } from '../../test/render-route.tsx';
import { action, Component } from './slot-list-page.tsx';

/**
 * Kind: a create form (the page's `action` through `formAction`). New forms copy this: a refusal by the
 * contract's schema sends nothing, and the API's 422 (stubbed at `fetch`, the browser's edge) puts its
 * messages next to the fields.
 */
const renderPage = () =>
  renderRoute({ path: '/portale/prenotazioni', Component, loader: listFixture([]), action });

/** The error text tied to a control by its aria-describedby. */
function errorOf(control: HTMLElement): string {
  const ids = (control.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter((id) => id.endsWith('-error'));
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

describe('appointments page: create form (component)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('refuses an empty form next to each field, without sending anything', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    renderPage();
    const form = await screen.findByTestId('nuovo-form');
    await userEvent.click(within(form).getByRole('button', { name: 'Crea l’appuntamento' }));
    expect((await screen.findByRole('alert')).textContent).toBe(INVALID_FORM_MESSAGE);
    const title = within(form).getByLabelText('Titolo');
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(title)).not.toBe('');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows the API’s 422 next to its field and keeps what was typed', async () => {
    document.cookie = 'XSRF-TOKEN=test';
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      Response.json(
        {
          statusCode: 422,
          code: 'validation',
          message: INVALID_FORM_MESSAGE,
          errors: { place: ['Il luogo non è tra quelli ammessi.'] },
        },
        { status: 422 },
      ),
    );
    renderPage();
    const form = await screen.findByTestId('nuovo-form');
    await userEvent.type(within(form).getByLabelText('Titolo'), 'Incontro di presentazione');
    await userEvent.type(within(form).getByLabelText('Inizio'), '2027-03-01T10:00');
    await userEvent.type(within(form).getByLabelText('Fine'), '2027-03-01T11:00');
    await userEvent.type(within(form).getByLabelText('Luogo'), 'Aula magna');
    await userEvent.clear(within(form).getByLabelText('Posti'));
    await userEvent.type(within(form).getByLabelText('Posti'), '30');
    await userEvent.click(within(form).getByRole('button', { name: 'Crea l’appuntamento' }));
    const place = within(form).getByLabelText('Luogo');
    await vi.waitFor(() => expect(errorOf(place)).toBe('Il luogo non è tra quelli ammessi.'));
    expect((await screen.findByRole('alert')).textContent).toBe(INVALID_FORM_MESSAGE);
    expect(fetch).toHaveBeenCalled();
    const [url, init] = fetch.mock.calls.at(-1)!;
    expect(String(url)).toContain(createSlot.path);
    expect(init?.method).toBe('POST');
    expect((within(form).getByLabelText('Titolo') as HTMLInputElement).value).toBe(
      'Incontro di presentazione',
    );
  });
});
