import { describe, expect, it } from 'vitest';
import { CountCache } from '../src/lib/list.ts';

describe('CountCache', () => {
  const db = {};
  function counter() {
    let calls = 0;
    return { count: () => Promise.resolve(++calls), calls: () => calls };
  }

  it('counts the same filters once, whatever the page, the sort or the page size', async () => {
    const cache = new CountCache();
    const c = counter();
    expect(await cache.get(db, { q: 'roma', page: 1 }, c.count)).toBe(1);
    expect(await cache.get(db, { q: 'roma', page: 2, sort: '-name', pageSize: 50 }, c.count)).toBe(1);
    expect(await cache.get(db, { q: 'milano' }, c.count)).toBe(2);
    expect(c.calls()).toBe(2);
  });

  it('after clear(filters) recounts only the totals that use one of those filters; clear() recounts every total', async () => {
    const cache = new CountCache();
    const c = counter();
    await cache.get(db, { q: 'roma' }, c.count);
    await cache.get(db, { region: 'Lazio' }, c.count);
    await cache.get(db, { region: 'Lazio', participating: true }, c.count);
    await cache.get(db, {}, c.count);
    cache.clear([]);
    cache.clear(['participating']);
    expect(await cache.get(db, { q: 'roma' }, c.count)).toBe(1);
    expect(await cache.get(db, { region: 'Lazio' }, c.count)).toBe(2);
    expect(await cache.get(db, {}, c.count)).toBe(4);
    expect(await cache.get(db, { region: 'Lazio', participating: true }, c.count)).toBe(5);
    cache.clear();
    expect(await cache.get(db, { q: 'roma' }, c.count)).toBe(6);
    expect(await cache.get(db, {}, c.count)).toBe(7);
  });

  it('does not keep a count that was running when its filter was cleared', async () => {
    const cache = new CountCache();
    let finish!: (n: number) => void;
    const running = cache.get(db, { q: 'roma' }, () => new Promise<number>((resolve) => (finish = resolve)));
    cache.clear(['q']);
    finish(1);
    expect(await running).toBe(1);
    expect(await cache.get(db, { q: 'roma' }, () => Promise.resolve(2))).toBe(2);
  });
});
