import { describe, expect, it } from 'vitest';
import { lastLoginLabel } from './user-labels.ts';

describe('lastLoginLabel', () => {
  it('names the method, and the level of a CIE or SPID login', () => {
    expect(lastLoginLabel({ method: 'password', acr: null })).toBe('e-mail e password');
    expect(lastLoginLabel({ method: 'mfa', acr: null })).toBe('e-mail, password e codice TOTP');
    expect(lastLoginLabel({ method: 'spid', acr: 'https://www.spid.gov.it/SpidL2' })).toBe('SPID, livello 2');
    expect(lastLoginLabel({ method: 'cie', acr: 'https://www.spid.gov.it/SpidL3' })).toBe('CIE, livello 3');
    expect(lastLoginLabel({ method: 'cie', acr: null })).toBe('CIE');
  });
});
