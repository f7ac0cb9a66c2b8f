import { describe, expect, it } from 'vitest';
import { FILE_SIGNATURES, hasSignature, sniffFile, uploadedBytesOf } from './uploads.ts';

const bytes = (...values: number[]) => Buffer.from(values);

describe('the magic-byte table', () => {
  const evidence = [FILE_SIGNATURES.pdf, FILE_SIGNATURES.png, FILE_SIGNATURES.jpeg];

  it('tells a file by its first bytes, whatever else follows', () => {
    expect(sniffFile(Buffer.from('%PDF-1.7\n…', 'latin1'), evidence)?.ext).toBe('pdf');
    expect(sniffFile(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0), evidence)?.type).toBe(
      'image/png',
    );
    expect(sniffFile(bytes(0xff, 0xd8, 0xff, 0xe0), evidence)?.ext).toBe('jpg');
  });

  it('refuses a truncated signature, an empty head and a type the route does not accept', () => {
    expect(sniffFile(Buffer.from('%PDF', 'latin1'), evidence)).toBeUndefined();
    expect(sniffFile(Buffer.alloc(0), evidence)).toBeUndefined();
    expect(sniffFile(bytes(0xff, 0xd8, 0xff), [FILE_SIGNATURES.pdf])).toBeUndefined();
    expect(hasSignature(Buffer.from('%PDF-', 'latin1'), FILE_SIGNATURES.pdf)).toBe(true);
  });
});

describe('uploadedBytesOf', () => {
  const errors = { missing: () => new Error('missing'), empty: () => new Error('empty') };

  it('answers the bytes, or the route’s own error for no body and an empty one', () => {
    expect(uploadedBytesOf(bytes(1, 2), errors)).toEqual(bytes(1, 2));
    expect(() => uploadedBytesOf(undefined, errors)).toThrow('missing');
    expect(() => uploadedBytesOf({}, errors)).toThrow('missing');
    expect(() => uploadedBytesOf(Buffer.alloc(0), errors)).toThrow('empty');
    expect(() => uploadedBytesOf(Buffer.alloc(0), { missing: errors.missing })).toThrow('missing');
  });
});
