import { describe, expect, it } from 'vitest';
import { parseId } from './index.ts';

describe('parseId', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
  ])('parses %s', (raw, id) => {
    expect(parseId(raw)).toBe(id);
  });

  it.each([
    undefined,
    '',
    '0',
    '-1',
    '01',
    '1.5',
    '1e3',
    ' 1',
    '1 ',
    '0x10',
    'abc',
    '9007199254740992',
    '12345678901234567',
  ])('rejects %j', (raw) => {
    expect(parseId(raw)).toBeUndefined();
  });
});
