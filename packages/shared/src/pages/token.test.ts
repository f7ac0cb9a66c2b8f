import { describe, expect, it } from 'vitest';
import { isValidToken } from './token.ts';

describe('isValidToken', () => {
  it.each(['abc1234', 'ABCDEFG', '0000000', 'aB3dE5g'])('accepts the 7-character token %s', (token) => {
    expect(isValidToken(token)).toBe(true);
  });

  it.each(['abc123', 'abc12345', 'abc-123', 'abc 123', 'àbc1234', '', 'abc123\n', '１２３４５６７'])(
    'rejects %j',
    (token) => {
      expect(isValidToken(token)).toBe(false);
    },
  );
});
