import { describe, expect, it } from 'vitest';
import { claimReload, RELOAD_THROTTLE_MS } from './reload.ts';

function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, v),
  };
}

describe('reload throttle', () => {
  it('reloads a path at most once per 10 seconds', () => {
    const storage = memoryStorage();
    expect(claimReload('/x', storage, 1000)).toBe(true);
    expect(claimReload('/x', storage, 1000 + RELOAD_THROTTLE_MS - 1)).toBe(false);
    expect(claimReload('/x', storage, 1000 + RELOAD_THROTTLE_MS + 1)).toBe(true);
  });

  it('remembers only the last path: A, B, then A again all reload', () => {
    const storage = memoryStorage();
    expect(claimReload('/a', storage, 0)).toBe(true);
    expect(claimReload('/b', storage, 1)).toBe(true);
    expect(claimReload('/a', storage, 2)).toBe(true);
  });

  it('stores only the path and its expiry', () => {
    const storage = memoryStorage();
    claimReload('/y', storage, 5);
    expect(JSON.parse(storage.getItem('portale:reload')!)).toEqual({
      path: '/y',
      expires: 5 + RELOAD_THROTTLE_MS,
    });
  });

  it('does not throttle without storage', () => {
    expect(claimReload('/x', undefined)).toBe(true);
    expect(claimReload('/x', undefined)).toBe(true);
  });
});
