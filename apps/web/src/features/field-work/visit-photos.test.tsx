import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  deleteVisitPhoto,
  listVisitPhotos,
  REPORT_PHOTO_MESSAGES,
  type ReportPhoto,
} from '@portale/shared/field-work';
import { ApiError, callApi, downloadFile } from '../../lib/api-client.ts';
import { renderRoute } from '../../test/render-route.tsx';
import VisitPhotos from './visit-photos.tsx';

vi.mock('../../lib/api-client.ts', async (original) => ({
  ...(await original<typeof import('../../lib/api-client.ts')>()),
  callApi: vi.fn(),
  downloadFile: vi.fn(),
}));

const photo = (id: number, index: number, deletable: boolean): ReportPhoto => ({
  id,
  clientReportId: '6f1c3b5e-2a4d-4c8e-9b7a-1d2e3f405162',
  index,
  mediaType: 'image/jpeg',
  sizeBytes: 1000,
  createdAt: '2026-11-29T10:00:00.000Z',
  deletable,
});

let deletions: unknown[];
beforeEach(() => {
  deletions = [];
  URL.createObjectURL = vi.fn(() => 'blob:foto');
  URL.revokeObjectURL = vi.fn();
  vi.mocked(downloadFile).mockResolvedValue({ blob: new Blob(['x']) } as never);
  vi.mocked(callApi).mockImplementation((async (endpoint: unknown, input: unknown) => {
    if (endpoint === listVisitPhotos) return { items: [photo(11, 0, true), photo(12, 1, false)] };
    if (endpoint === deleteVisitPhoto) {
      deletions.push(input);
      return undefined;
    }
    throw new Error('unexpected call');
  }) as never);
});
afterEach(() => vi.mocked(callApi).mockReset());

const renderPhotos = () => renderRoute({ path: '/', Component: () => <VisitPhotos visitId={5} /> });

/**
 * Kind: a component that loads its own data on two pages (the detector's visits, the staff review):
 * "Elimina" only where the API says `deletable`, asked first, focus kept where the user is.
 */
describe('the photos of a visit report: deleting one (component)', () => {
  it('offers "Elimina" only on a deletable photo, asks first, and "Annulla" deletes nothing', async () => {
    renderPhotos();
    expect(await screen.findByRole('img', { name: 'Foto 2 del resoconto' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Elimina la foto 2' })).toBeNull();
    const opener = screen.getByRole('button', { name: 'Elimina la foto 1' });
    await userEvent.click(opener);
    const group = screen.getByRole('group', {
      name: 'Eliminare la foto 1 del resoconto? Non si potrà recuperare.',
    });
    expect(document.activeElement).toBe(group);
    await userEvent.click(screen.getByRole('button', { name: 'Annulla' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Elimina la foto 1' }));
    expect(deletions).toEqual([]);
  });

  it('deletes on confirmation: the photo leaves the list and the focus goes to "Foto 1 eliminata."', async () => {
    renderPhotos();
    await userEvent.click(await screen.findByRole('button', { name: 'Elimina la foto 1' }));
    await userEvent.click(screen.getByRole('button', { name: 'Conferma: elimina la foto 1' }));
    const status = await screen.findByRole('status');
    expect(status.textContent).toBe('Foto 1 eliminata.');
    expect(document.activeElement).toBe(status);
    expect(deletions).toEqual([{ params: { visitId: 5, photoId: 11 } }]);
    expect(screen.queryByRole('img', { name: 'Foto 1 del resoconto' })).toBeNull();
    expect(screen.getByRole('img', { name: 'Foto 2 del resoconto' })).toBeTruthy();
    expect(screen.getByText('Foto del resoconto (1)')).toBeTruthy();
  });

  it('a refusal is said in Italian as an alert and the photo stays', async () => {
    vi.mocked(callApi).mockImplementation((async (endpoint: unknown) => {
      if (endpoint === listVisitPhotos) return { items: [photo(11, 0, true)] };
      throw new ApiError(403, REPORT_PHOTO_MESSAGES.reviewed);
    }) as never);
    renderPhotos();
    await userEvent.click(await screen.findByRole('button', { name: 'Elimina la foto 1' }));
    await userEvent.click(screen.getByRole('button', { name: 'Conferma: elimina la foto 1' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(`Foto 1 non eliminata: ${REPORT_PHOTO_MESSAGES.reviewed}`);
    expect(screen.getByRole('img', { name: 'Foto 1 del resoconto' })).toBeTruthy();
  });
});

describe('the photos of one report (component)', () => {
  it('asks for that report’s photos only when clientReportId is given', async () => {
    const reportId = '6f1c3b5e-2a4d-4c8e-9b7a-1d2e3f405162';
    renderRoute({
      path: '/',
      Component: () => <VisitPhotos visitId={5} clientReportId={reportId} />,
    });
    expect(await screen.findByRole('img', { name: 'Foto 1 del resoconto' })).toBeTruthy();
    expect(callApi).toHaveBeenCalledWith(listVisitPhotos, {
      params: { visitId: 5 },
      query: { clientReportId: reportId },
    });
  });

  it('without it, asks for the visit’s photos with no query', async () => {
    renderPhotos();
    expect(await screen.findByRole('img', { name: 'Foto 1 del resoconto' })).toBeTruthy();
    expect(callApi).toHaveBeenCalledWith(listVisitPhotos, { params: { visitId: 5 } });
  });
});
