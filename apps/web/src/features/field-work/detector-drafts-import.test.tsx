import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRoutesStub, type ActionFunctionArgs } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  importDetectorReports,
  type DetectorSummary,
  type ReportImportItem,
  type ReportImportPhoto,
  type ReportImportResult,
} from '@portale/shared/field-work';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { draftsImportAction, DraftsImportForm } from './detector-drafts-import.tsx';

vi.mock('../../lib/api-client.ts', async (original) => ({
  ...(await original<typeof import('../../lib/api-client.ts')>()),
  callApi: vi.fn(),
}));

const DETECTOR = { id: 5, firstName: 'Roberto', lastName: 'Rilevatore' } as DetectorSummary;
const item = (over: Partial<ReportImportItem>): ReportImportItem => ({
  clientReportId: '8d7c4a8e-3b0f-4e55-9f0e-3c2f4b1a0001',
  visitId: 41,
  site: { id: 3, name: 'Plesso Garibaldi', ministryCode: 'RMEE8AB01X' },
  scheduledAt: '2026-11-20T09:00:00.000Z',
  visitState: 'pianificata',
  excerpt: 'Visita svolta, incontrati due insegnanti.',
  teachersMet: 2,
  writtenAt: '2026-11-20T11:00:00.000Z',
  status: 'new',
  message: null,
  photos: [],
  ...over,
});
const photo = (index: number, status: ReportImportPhoto['status'], message: string | null = null) => ({
  index,
  sizeBytes: 350_000,
  status,
  message,
});
const result = (applied: boolean, items: ReportImportItem[]): ReportImportResult => ({
  detector: { id: 5, firstName: 'Roberto', lastName: 'Rilevatore' },
  exportedAt: '2026-11-21T10:00:00.000Z',
  items,
  counts: {
    new: items.filter((i) => i.status === 'new').length,
    imported: items.filter((i) => i.status === 'imported').length,
    received: items.filter((i) => i.status === 'received').length,
    conflict: items.filter((i) => i.status === 'conflict').length,
    invalid: items.filter((i) => i.status === 'invalid').length,
  },
  applied,
});
const FILE = '{"kind":"portale-visit-reports","version":1,"reports":[]}';

function renderForm() {
  const action = async ({ request }: ActionFunctionArgs) => draftsImportAction(await request.formData());
  const Stub = createRoutesStub([
    { path: '/portale/rilevatori', Component: () => <DraftsImportForm detectors={[DETECTOR]} />, action },
  ]);
  render(<Stub initialEntries={['/portale/rilevatori']} />);
  return screen.getByRole('form', { name: 'Importa bozze' });
}

async function choose(form: HTMLElement) {
  await userEvent.selectOptions(within(form).getByLabelText('Rilevatore'), '5');
  await userEvent.upload(
    within(form).getByLabelText('File delle bozze (.json)'),
    new File([FILE], 'resoconti-non-inviati.json', { type: 'application/json' }),
  );
  // The browser reads the file into the form (a hidden field), then the check can start.
  await waitFor(() =>
    expect((form.querySelector('input[name="content"]') as HTMLInputElement).value).toBe(FILE),
  );
}

describe('Importa bozze (staff, issue 39)', () => {
  afterEach(() => vi.clearAllMocks());

  it('shows what the file holds, then imports on the detector’s behalf after confirmation', async () => {
    const look = [
      item({}),
      item({
        clientReportId: '8d7c4a8e-3b0f-4e55-9f0e-3c2f4b1a0002',
        visitState: 'annullata',
        status: 'conflict',
        message: 'La visita è stata annullata o segnata come mancata: verrà conservata come conflitto.',
      }),
      item({ clientReportId: '8d7c4a8e-3b0f-4e55-9f0e-3c2f4b1a0003', status: 'received' }),
    ];
    vi.mocked(callApi).mockResolvedValueOnce(result(false, look));
    const form = renderForm();
    await choose(form);
    await userEvent.click(within(form).getByRole('button', { name: 'Controlla il file' }));
    const table = await screen.findByRole('table', { name: /Bozze nel file di Roberto Rilevatore/ });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').at(-1)!.textContent)).toEqual([
      'Nuovo',
      'In conflittoLa visita è stata annullata o segnata come mancata: verrà conservata come conflitto.',
      'Già ricevuto',
    ]);
    expect(within(rows[0]!).getByRole('rowheader').textContent).toBe('Plesso Garibaldi (RMEE8AB01X)');
    expect(callApi).toHaveBeenCalledWith(importDetectorReports, {
      params: { userId: 5 },
      body: { content: FILE, confirm: false },
    });

    vi.mocked(callApi).mockResolvedValueOnce(
      result(true, [{ ...look[0]!, status: 'imported', visitState: 'svolta' }, look[1]!, look[2]!]),
    );
    await userEvent.click(
      screen.getByRole('button', {
        name: 'Conferma l’importazione di 2 resoconti a nome di Roberto Rilevatore',
      }),
    );
    expect(
      await screen.findByText(/Importazione completata: importato 1, già ricevuto 1, in conflitto 1/),
    ).toBeTruthy();
    expect(callApi).toHaveBeenLastCalledWith(importDetectorReports, {
      params: { userId: 5 },
      body: { content: FILE, confirm: true },
    });
    expect(screen.queryByRole('button', { name: /Conferma l’importazione/ })).toBeNull();
  });

  it('counts the photos of each report and whether they are valid; the confirmation lands them and says why any was refused', async () => {
    const damaged = 'La foto nel file è incompleta o danneggiata (l’impronta SHA-256 non corrisponde).';
    const look = [
      item({ photos: [photo(0, 'valid'), photo(1, 'invalid', damaged), photo(2, 'valid')] }),
      // Sent by the device before it broke, its photos were not: they still go.
      item({
        clientReportId: '8d7c4a8e-3b0f-4e55-9f0e-3c2f4b1a0002',
        status: 'received',
        photos: [photo(0, 'received'), photo(1, 'valid')],
      }),
    ];
    vi.mocked(callApi).mockResolvedValueOnce(result(false, look));
    const form = renderForm();
    await choose(form);
    await userEvent.click(within(form).getByRole('button', { name: 'Controlla il file' }));
    const table = await screen.findByRole('table', { name: /Bozze nel file di Roberto Rilevatore/ });
    const photosCell = (row: HTMLElement) => within(row).getAllByRole('cell').at(-2)!.textContent;
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map(photosCell)).toEqual([
      `3 foto: 2 valide, 1 non validaFoto 2: ${damaged}`,
      '2 foto: 1 valida, 1 già ricevuta',
    ]);

    const quota =
      'Il rilevatore ha raggiunto lo spazio massimo per le foto (500 MB): la foto non viene caricata.';
    vi.mocked(callApi).mockResolvedValueOnce(
      result(true, [
        {
          ...look[0]!,
          status: 'imported',
          photos: [photo(0, 'landed'), photo(1, 'refused', damaged), photo(2, 'refused', quota)],
        },
        { ...look[1]!, photos: [photo(0, 'received'), photo(1, 'landed')] },
      ]),
    );
    await userEvent.click(
      screen.getByRole('button', {
        name: 'Conferma l’importazione di 1 resoconto e 3 foto a nome di Roberto Rilevatore',
      }),
    );
    expect(await screen.findByText(/Importazione completata: importato 1, già ricevuto 1/)).toBeTruthy();
    const done = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(done.map(photosCell)).toEqual([
      `3 foto: 1 caricata, 2 rifiutateFoto 2: ${damaged}Foto 3: ${quota}`,
      '2 foto: 1 già ricevuta, 1 caricata',
    ]);
  });

  it('a file whose reports the server has, with photos still to load, can be confirmed for the photos alone', async () => {
    vi.mocked(callApi).mockResolvedValueOnce(
      result(false, [item({ status: 'received', photos: [photo(0, 'valid'), photo(1, 'valid')] })]),
    );
    const form = renderForm();
    await choose(form);
    await userEvent.click(within(form).getByRole('button', { name: 'Controlla il file' }));
    expect(
      await screen.findByRole('button', {
        name: 'Conferma l’importazione di 2 foto a nome di Roberto Rilevatore',
      }),
    ).toBeTruthy();
  });

  it('a wrong file: the API’s Italian message beside the file, nothing else', async () => {
    const message =
      'Il file non è un’esportazione di bozze del Portale Scuole: scegli il file scaricato con «Esporta bozze».';
    vi.mocked(callApi).mockRejectedValueOnce(
      new ApiError(422, 'Alcuni dati non sono validi.', {
        code: 'validation_failed',
        errors: { content: [message] },
      }),
    );
    const form = renderForm();
    await choose(form);
    await userEvent.click(within(form).getByRole('button', { name: 'Controlla il file' }));
    expect(await within(form).findAllByText(message)).toHaveLength(2);
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('without a detector or a file: says what is missing and calls nobody', async () => {
    const form = renderForm();
    await userEvent.click(within(form).getByRole('button', { name: 'Controlla il file' }));
    // The browser's `required` stops the submission; the action checks again for a request without it.
    const data = new FormData();
    data.set('intent', 'import-preview');
    expect(await draftsImportAction(data)).toMatchObject({
      errors: {
        detector: 'Scegli il rilevatore di cui importare le bozze.',
        file: 'Scegli il file esportato con «Esporta bozze».',
      },
    });
    expect(callApi).not.toHaveBeenCalled();
  });
});
