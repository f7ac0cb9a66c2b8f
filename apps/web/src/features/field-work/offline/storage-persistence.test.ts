import { describe, expect, it } from 'vitest';
import { ensurePersistentStorage } from './storage-persistence.ts';

describe('the persistent storage of the drafts', () => {
  it('is persistent when already granted, without asking again', async () => {
    let asked = 0;
    const storage = { persisted: async () => true, persist: async () => (++asked, true) };
    expect(await ensurePersistentStorage(storage)).toBe('persistent');
    expect(asked).toBe(0);
  });
  it('asks once when not granted yet, and says what the browser answered', async () => {
    expect(await ensurePersistentStorage({ persisted: async () => false, persist: async () => true })).toBe(
      'persistent',
    );
    expect(await ensurePersistentStorage({ persisted: async () => false, persist: async () => false })).toBe(
      'at-risk',
    );
  });
  it('is at risk where the browser has no Storage API or refuses to answer', async () => {
    expect(await ensurePersistentStorage(undefined)).toBe('at-risk');
    expect(await ensurePersistentStorage({})).toBe('at-risk');
    expect(
      await ensurePersistentStorage({
        persisted: () => Promise.reject(new Error('denied')),
      }),
    ).toBe('at-risk');
  });
});
