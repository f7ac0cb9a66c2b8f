import { describe, expect, it } from 'vitest';
import {
  pageWindow,
  parsePage,
  parsePageSize,
  parseSort,
  searchString,
  sortOptionsOf,
  sortParam,
  withParams,
} from './list-params.ts';

describe('list params', () => {
  it('reads and writes the order as the API does (name / -name)', () => {
    expect(parseSort('-municipalityName', 'name')).toEqual({ column: 'municipalityName', direction: 'desc' });
    expect(parseSort(null, 'name')).toEqual({ column: 'name', direction: 'asc' });
    expect(sortParam({ column: 'region', direction: 'desc' })).toBe('-region');
  });

  it('takes only sane pages and page sizes', () => {
    expect(parsePage('3')).toBe(3);
    expect(parsePage('0')).toBe(1);
    expect(parsePage('abc')).toBe(1);
    expect(parsePageSize('50')).toBe(50);
    expect(parsePageSize('1000')).toBe(25);
  });

  it('goes back to page 1 when anything but the page changes', () => {
    const current = new URLSearchParams('region=Lazio&page=4&sort=-name');
    expect(withParams(current, { province: 'RM' }).toString()).toBe('region=Lazio&sort=-name&province=RM');
    expect(withParams(current, { sort: 'name' }).get('page')).toBeNull();
    expect(withParams(current, { page: 5 }).get('page')).toBe('5');
    expect(withParams(current, { page: 1 }).get('page')).toBeNull();
    expect(withParams(current, { region: null }).has('region')).toBe(false);
    expect(searchString(new URLSearchParams())).toBe('');
  });

  it('offers each sortable column in both directions', () => {
    expect(sortOptionsOf([{ value: 'name', label: 'Nome' }])).toEqual([
      { value: 'name', label: 'Nome, crescente' },
      { value: '-name', label: 'Nome, decrescente' },
    ]);
  });

  it('shows the first, the last and two pages around the current one', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 69)).toEqual([1, 2, 3, null, 69]);
    expect(pageWindow(10, 69)).toEqual([1, null, 8, 9, 10, 11, 12, null, 69]);
    expect(pageWindow(4, 6)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
