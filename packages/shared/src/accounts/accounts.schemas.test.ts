import { describe, expect, it } from 'vitest';
import { dictionary } from '@zxcvbn-ts/language-common';
import {
  isCertifiedEmail,
  isValidTaxCode,
  maskPhone,
  normalizeMobilePhone,
  taxCodeCheckChar,
} from './index.ts';
import { checkPasswordStrength, PASSWORD_CONTEXT_WORDS, RegistrationBodySchema } from './password.ts';

it('keeps the password policy (zxcvbn) out of the main accounts entry', async () => {
  const main = await import('./index.ts');
  expect('checkPasswordStrength' in main).toBe(false);
  expect('ForgotPasswordBodySchema' in main).toBe(true);
});

describe('codice fiscale', () => {
  it('accepts a valid code and its omocodia variant, rejects a wrong check character', () => {
    expect(isValidTaxCode('RSSMRA85T10A562S')).toBe(true);
    expect(isValidTaxCode('rss mra 85t10 a562s')).toBe(true);
    const omocode = 'RSSMRA85T10A56N';
    expect(isValidTaxCode(omocode + taxCodeCheckChar(omocode))).toBe(true);
    expect(isValidTaxCode('RSSMRA85T10A562A')).toBe(false);
    expect(isValidTaxCode('RSSMRA85T10A562')).toBe(false);
  });
});

describe('contacts', () => {
  it('recognises PEC domains', () => {
    for (const e of [
      'a@pec.it',
      'a@legalmail.it',
      'a@comune.roma.pec.it',
      'a@postacert.example.it',
      'a@arubapec.it',
    ]) {
      expect(isCertifiedEmail(e), e).toBe(true);
    }
    for (const e of ['a@gmail.com', 'mario.rossi@istruzione.it', 'a@specchio.it'])
      expect(isCertifiedEmail(e), e).toBe(false);
  });
  it('normalises Italian mobiles to E.164 and masks them', () => {
    expect(normalizeMobilePhone('333 123 4567')).toBe('+393331234567');
    expect(normalizeMobilePhone('+39 333 1234567')).toBe('+393331234567');
    expect(normalizeMobilePhone('06 1234 5678')).toBeUndefined();
    expect(normalizeMobilePhone('abc')).toBeUndefined();
    expect(maskPhone('+393331234567')).toBe('+39 ••• ••• •567');
  });
});

describe('password policy', () => {
  it('needs 12 characters and at most 128, any Unicode', () => {
    expect(checkPasswordStrength('Xq7!vL2#pZ9').acceptable).toBe(false);
    expect(checkPasswordStrength('Quaderno-Girasole-47').acceptable).toBe(true);
    expect(
      checkPasswordStrength('è'.repeat(60) + '🙂 Lavagna Màgica 2026 ' + 'ù'.repeat(40)).acceptable,
    ).toBe(true);
    expect(checkPasswordStrength('a'.repeat(129)).acceptable).toBe(false);
  });
  it('refuses common passwords, context words and personal words', () => {
    const list = dictionary['passwords-common'] as string[];
    const sample = list.filter((p) => [...p].length >= 12).slice(0, 100);
    for (const p of sample) expect(checkPasswordStrength(p).acceptable, p).toBe(false);
    for (const w of PASSWORD_CONTEXT_WORDS)
      expect(checkPasswordStrength(`${w}2026!!!!!!!`).acceptable, w).toBe(false);
    expect(
      checkPasswordStrength('Mariarossi-Lavagna-9', { email: 'mariarossi@example.com' }).acceptable,
    ).toBe(false);
    expect(checkPasswordStrength('Girasole-Bianchi-9', { lastName: 'Bianchi' }).acceptable).toBe(false);
  });
});

describe('registration body', () => {
  const base = {
    kind: 'insegnante',
    firstName: 'Maria',
    lastName: 'Rossi',
    email: 'Maria.Rossi@Example.com',
    phone: '3331234567',
    password: 'Quaderno-Girasole-47',
    taxCode: 'RSSMRA85T10A562S',
    schoolSiteId: 1,
    subjects: ['Matematica'],
    privacyAccepted: true,
  };
  it('normalises e-mail, phone and tax code', () => {
    const parsed = RegistrationBodySchema.parse(base);
    expect(parsed).toMatchObject({
      email: 'maria.rossi@example.com',
      phone: '+393331234567',
      taxCode: 'RSSMRA85T10A562S',
    });
  });
  it('explains PEC refusals and requires the tax code except for altro', () => {
    const pec = RegistrationBodySchema.safeParse({ ...base, email: 'maria@pec.it' });
    expect(pec.error?.issues[0]?.message).toMatch(/PEC/);
    expect(RegistrationBodySchema.safeParse({ ...base, taxCode: undefined }).success).toBe(false);
    expect(
      RegistrationBodySchema.safeParse({ ...base, kind: 'altro', taxCode: undefined, subjects: [] }).success,
    ).toBe(true);
  });
});
