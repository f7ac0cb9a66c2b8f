import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRoutesStub, type LoaderFunctionArgs } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StaffDocument } from '@portale/shared/documents';
import { action, Component } from './document-list-page.tsx';

/** A list page (kind: list with filters and an upload form), on its loader's data, without a server. */
function renderPage(items: StaffDocument[], url = '/portale/documenti') {
  const searches: string[] = [];
  const loader = ({ request }: LoaderFunctionArgs) => {
    const search = new URL(request.url).searchParams;
    searches.push(search.toString());
    return {
      query: Object.fromEntries(search),
      result: { items, total: items.length, page: 1, pageSize: 25 },
      problem: null,
    };
  };
  const Stub = createRoutesStub([{ path: '/portale/documenti', Component, loader, action }]);
  render(<Stub initialEntries={[url]} />);
  return { searches };
}

const GUIDE: StaffDocument = {
  id: 7,
  title: 'Guida al rilevamento',
  category: 'guide',
  description: null,
  fileName: 'guida.pdf',
  sizeBytes: 120_000,
  published: false,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
} as unknown as StaffDocument;

describe('documents list page (component)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('an empty list says so, and a filter goes into the URL that the loader reads', async () => {
    const { searches } = renderPage([]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Documenti' })).toBeTruthy();
    expect(screen.getByTestId('list-status').textContent).toMatch(/^0 documenti/);
    const filters = screen.getByLabelText('Cerca nei documenti');
    await userEvent.selectOptions(within(filters).getByLabelText('Categoria'), 'guide');
    await userEvent.click(within(filters).getByRole('button', { name: 'Applica i filtri' }));
    // Only what filters something goes into the URL (no empty search, no default order).
    await vi.waitFor(() => expect(searches.at(-1)).toBe('category=guide'));
  });

  it('shows each document as a row with its link, category and state', async () => {
    renderPage([GUIDE]);
    const row = (await screen.findByRole('link', { name: 'Guida al rilevamento' })).closest('tr')!;
    expect(row.querySelector('a')!.getAttribute('href')).toBe('/portale/documenti/7');
    expect(within(row).getByText('No')).toBeTruthy();
  });

  it('refuses an upload without title and file next to each field, without sending anything', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    renderPage([]);
    const form = await screen.findByTestId('upload-form');
    await userEvent.click(within(form).getByRole('button', { name: 'Carica il documento' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Alcuni dati non sono validi. Controlla i campi evidenziati.',
    );
    expect(within(form).getByText('Il file caricato è vuoto: scegli un documento PDF.')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });
});
