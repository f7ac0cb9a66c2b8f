import { describe, expect, it } from 'vitest';
import { taxCodeCheckChar } from '../accounts/tax-code.ts';
import { birthdateAgrees, birthOfTaxCode, fiscalNumberOf, normalizeFiscalNumber } from './fiscal-number.ts';

describe('fiscal number of a provider', () => {
  it('accepts both attribute spellings and strips TINIT-', () => {
    expect(fiscalNumberOf({ 'https://attributes.eid.gov.it/fiscal_number': 'TINIT-RSSMRA85T10A562S' })).toBe(
      'RSSMRA85T10A562S',
    );
    expect(fiscalNumberOf({ fiscalNumber: 'TINIT-RSSMRA85T10A562S' })).toBe('RSSMRA85T10A562S');
    expect(fiscalNumberOf({ fiscalNumber: 'RSSMRA85T10A562S' })).toBe('RSSMRA85T10A562S');
  });

  it('upper-cases and removes spaces, prefix included', () => {
    expect(normalizeFiscalNumber('tinit-rssmra85t10a562s')).toBe('RSSMRA85T10A562S');
    expect(normalizeFiscalNumber(' RSS MRA 85T10 A562S ')).toBe('RSSMRA85T10A562S');
  });

  it('accepts omocodia and refuses a wrong check character, a short code, a foreign prefix', () => {
    const omocode = 'RSSMRA85T10A56N';
    expect(normalizeFiscalNumber(`TINIT-${omocode}${taxCodeCheckChar(omocode)}`)).toBe(
      omocode + taxCodeCheckChar(omocode),
    );
    expect(normalizeFiscalNumber('TINIT-RSSMRA85T10A562A')).toBeNull();
    expect(normalizeFiscalNumber('TINIT-RSSMRA85T10A562')).toBeNull();
    expect(normalizeFiscalNumber('TINFR-RSSMRA85T10A562S')).toBeNull();
    expect(normalizeFiscalNumber('')).toBeNull();
  });

  it('is null without the attribute or with a value that is not a string', () => {
    expect(fiscalNumberOf({})).toBeNull();
    expect(fiscalNumberOf({ fiscalNumber: 42 })).toBeNull();
  });

  it('reads the birth date and compares it with a provider birthdate', () => {
    expect(birthOfTaxCode('RSSMRA85T10A562S')).toEqual({ yy: '85', mm: '12', dd: '10' });
    // A woman: 40 is added to the day.
    const woman = 'BNCLRA90A41H501';
    expect(birthOfTaxCode(woman + taxCodeCheckChar(woman))).toEqual({ yy: '90', mm: '01', dd: '01' });
    expect(birthdateAgrees('RSSMRA85T10A562S', '1985-12-10')).toBe(true);
    expect(birthdateAgrees('RSSMRA85T10A562S', '1985-12-11')).toBe(false);
    expect(birthdateAgrees('RSSMRA85T10A562S', undefined)).toBe(true);
  });
});
