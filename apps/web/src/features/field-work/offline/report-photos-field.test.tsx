import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OfflinePhoto } from './report-store.ts';
import ReportPhotosField from './report-photos-field.tsx';

// The photo picker of the report draft (decision 055): the device's queue and the canvas compression
// are replaced by fakes (jsdom has no canvas); what is checked is what the detector sees and can do.

const fake = vi.hoisted(() => ({ photos: [] as OfflinePhoto[], compressed: 0 }));

vi.mock('./detector-report-queue.ts', () => ({
  detectorReportQueue: async () => ({
    photosOf: async () => [...fake.photos],
    addPhoto: async (clientReportId: string, photo: { blob: Blob; type: 'image/jpeg' }) => {
      if (fake.photos.length >= 5) throw new Error('Al massimo 5 foto per resoconto.');
      const record = {
        clientReportId,
        index: fake.photos.length,
        ...photo,
        width: 1600,
        height: 1200,
        size: 250_000,
        sha256: 'a'.repeat(64),
        uploadUrl: null,
        uploadedAt: null,
        addedAt: '2026-11-29T09:00:00.000Z',
      } satisfies OfflinePhoto;
      fake.photos.push(record);
      return record;
    },
    removePhoto: async (_id: string, index: number) => {
      fake.photos = fake.photos.filter((p) => p.index !== index);
    },
  }),
}));

vi.mock('./photo-compression.ts', () => ({
  compressPhoto: async (file: File) => {
    if (file.name === 'rotta.jpg')
      throw new Error('Impossibile leggere l’immagine: scegli una foto JPEG o PNG.');
    fake.compressed++;
    return {
      blob: new Blob(['jpeg'], { type: 'image/jpeg' }),
      type: 'image/jpeg',
      width: 1600,
      height: 1200,
    };
  },
}));

function Draft() {
  const [id, setId] = useState<string | null>(null);
  return (
    <ReportPhotosField
      clientReportId={id}
      ensureDraft={async () => {
        setId('8d7c4a8e-3b0f-4e55-9f0e-3c2f4b1a0001');
        return '8d7c4a8e-3b0f-4e55-9f0e-3c2f4b1a0001';
      }}
    />
  );
}

const jpeg = (name: string) => new File(['x'.repeat(100)], name, { type: 'image/jpeg' });

beforeEach(() => {
  fake.photos = [];
  fake.compressed = 0;
  URL.createObjectURL = vi.fn(() => 'blob:foto');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => vi.clearAllMocks());

describe('the photos of a report draft', () => {
  it('adds photos (the first creates the draft), shows them as thumbnails with their size, and "Rimuovi" takes one off', async () => {
    const user = userEvent.setup();
    render(<Draft />);
    const input = screen.getByLabelText('Scatta o scegli una foto');
    expect(screen.getByRole('group', { name: 'Foto (facoltative, al massimo 5)' })).toBeTruthy();
    await user.upload(input, [jpeg('a.jpg'), jpeg('b.jpg')]);
    expect(await screen.findByText('Foto aggiunte: 2 di 5.')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByRole('img')).toHaveLength(2));
    expect(screen.getByRole('img', { name: 'Foto 2 di 2' }).getAttribute('src')).toBe('blob:foto');
    expect(screen.getAllByText('244 KB')).toHaveLength(2);
    expect(fake.compressed).toBe(2);

    await user.click(screen.getByRole('button', { name: 'Rimuovi la foto 1' }));
    expect(await screen.findByText('Foto 1 rimossa.')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByRole('img')).toHaveLength(1));
  });

  it('refuses more than 5 photos in Italian and disables the input when full', async () => {
    const user = userEvent.setup();
    render(<Draft />);
    const input = screen.getByLabelText('Scatta o scegli una foto');
    await user.upload(
      input,
      ['1', '2', '3', '4', '5', '6'].map((n) => jpeg(`${n}.jpg`)),
    );
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Al massimo 5 foto per resoconto. Puoi aggiungerne ancora 5.',
    );
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(fake.compressed).toBe(0);
    await user.upload(
      input,
      ['1', '2', '3', '4', '5'].map((n) => jpeg(`${n}.jpg`)),
    );
    expect(await screen.findByText('Foto aggiunte: 5 di 5.')).toBeTruthy();
    await waitFor(() => expect((input as HTMLInputElement).disabled).toBe(true));
    expect(screen.getByText('Hai aggiunto il numero massimo di foto.')).toBeTruthy();
  });

  it('says why a photo could not be read', async () => {
    const user = userEvent.setup();
    render(<Draft />);
    await user.upload(screen.getByLabelText('Scatta o scegli una foto'), jpeg('rotta.jpg'));
    expect((await screen.findByRole('alert')).textContent).toContain('Impossibile leggere l’immagine');
    expect(screen.queryByRole('img')).toBeNull();
  });
});
