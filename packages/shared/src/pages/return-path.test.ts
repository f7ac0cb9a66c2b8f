import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-path.ts';

describe('safeReturnPath', () => {
  it.each(['/portale/utenti?x=1#a', '/portale', '/portale/istituti/12', '/contatti?q=roma%20nord'])(
    'accepts the same-origin path %s',
    (path) => {
      expect(safeReturnPath(path)).toBe(path);
    },
  );

  it.each([
    '//evil.com',
    '//evil.com/portale',
    '/\\evil.com',
    '/\\/evil.com',
    'https://evil.com',
    'http:/evil.com',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'portale',
    '',
    ' /portale',
    '/portale\n/x',
    '/\t/evil.com',
    '/portale\u0000',
    '/portale\u007f',
    '/.//evil.com',
    '/..//evil.com',
    '/a/..//evil.com/x',
  ])('rejects %j and falls back to /portale', (path) => {
    expect(safeReturnPath(path)).toBe('/portale');
  });

  it('falls back for null, undefined and over-long values', () => {
    expect(safeReturnPath(null)).toBe('/portale');
    expect(safeReturnPath(undefined)).toBe('/portale');
    expect(safeReturnPath(`/${'a'.repeat(2048)}`)).toBe('/portale');
  });

  it('never returns to the login page itself', () => {
    expect(safeReturnPath('/auth/login?redirect=/portale')).toBe('/portale');
  });

  it('normalises dot segments that stay on the site', () => {
    expect(safeReturnPath('/portale/../contatti')).toBe('/contatti');
  });

  it('uses the given fallback', () => {
    expect(safeReturnPath('//evil.com', '/')).toBe('/');
  });
});
