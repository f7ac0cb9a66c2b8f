import { describe, expect, it } from 'vitest';
import { compressWith, scaledSize, type PhotoSize } from './photo-compression.ts';

describe('the size a photo is compressed to', () => {
  it('brings the longest side to 1600 px, keeping proportions (landscape, portrait, square)', () => {
    expect(scaledSize(4032, 3024)).toEqual({ width: 1600, height: 1200 });
    expect(scaledSize(3024, 4032)).toEqual({ width: 1200, height: 1600 });
    expect(scaledSize(5000, 5000)).toEqual({ width: 1600, height: 1600 });
    expect(scaledSize(4000, 1)).toEqual({ width: 1600, height: 1 });
  });

  it('never enlarges a small photo', () => {
    expect(scaledSize(800, 600)).toEqual({ width: 800, height: 600 });
    expect(scaledSize(1600, 900)).toEqual({ width: 1600, height: 900 });
  });
});

describe('compression under the 5 MB cap', () => {
  const encoder = (bytesAt: (size: PhotoSize, quality: number) => number) => {
    const calls: { size: PhotoSize; quality: number }[] = [];
    const encode = async (size: PhotoSize, quality: number) => {
      calls.push({ size, quality });
      return new Blob([new Uint8Array(bytesAt(size, quality))], { type: 'image/jpeg' });
    };
    return { encode, calls };
  };

  it('encodes once at quality 0.8 when the photo fits', async () => {
    const { encode, calls } = encoder(() => 400_000);
    const result = await compressWith(encode, { width: 4032, height: 3024 });
    expect(calls).toEqual([{ size: { width: 1600, height: 1200 }, quality: 0.8 }]);
    expect(result.size).toEqual({ width: 1600, height: 1200 });
  });

  it('lowers the quality, then the size, until it fits', async () => {
    const { encode, calls } = encoder((size, quality) =>
      size.width === 1600 ? 6_000_000 : quality < 0.7 ? 3_000_000 : 0,
    );
    const result = await compressWith(encode, { width: 4032, height: 3024 });
    expect(calls.map((c) => [c.size.width, c.quality])).toEqual([
      [1600, 0.8],
      [1600, 0.6],
      [1200, 0.6],
    ]);
    expect(result.size).toEqual({ width: 1200, height: 900 });
  });

  it('refuses in Italian a photo still over the cap after every try', async () => {
    const { encode } = encoder(() => 100);
    await expect(compressWith(encode, { width: 100, height: 100 }, 50)).rejects.toThrow(
      'La foto supera i 5 MB anche dopo la compressione',
    );
  });
});
