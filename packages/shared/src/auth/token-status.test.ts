import { describe, expect, it } from 'vitest';
import { TOKEN_EXPIRY_MARGIN_MS, tokenStatus } from './token-status.ts';

const now = 1_800_000_000_000;

describe('tokenStatus', () => {
  it('uses a 500 ms margin', () => {
    expect(TOKEN_EXPIRY_MARGIN_MS).toBe(500);
  });

  it('is valid 600 ms before expiry', () => {
    expect(tokenStatus('Bearer x', now + 600, now)).toBe('valid');
  });

  it('is expired 400 ms before expiry, at the margin and after expiry', () => {
    expect(tokenStatus('Bearer x', now + 400, now)).toBe('expired');
    expect(tokenStatus('Bearer x', now + 500, now)).toBe('expired');
    expect(tokenStatus('Bearer x', now - 1, now)).toBe('expired');
  });

  it('is unknown without a token or without an expiry', () => {
    expect(tokenStatus(undefined, now + 60_000, now)).toBe('unknown');
    expect(tokenStatus('', now + 60_000, now)).toBe('unknown');
    expect(tokenStatus(null, now + 60_000, now)).toBe('unknown');
    expect(tokenStatus('Bearer x', false, now)).toBe('unknown');
    expect(tokenStatus('Bearer x', 0, now)).toBe('unknown');
    expect(tokenStatus('Bearer x', null, now)).toBe('unknown');
    expect(tokenStatus('Bearer x', undefined, now)).toBe('unknown');
  });

  it('defaults to the current time', () => {
    expect(tokenStatus('Bearer x', Date.now() + 60_000)).toBe('valid');
    expect(tokenStatus('Bearer x', Date.now() + 100)).toBe('expired');
  });
});
