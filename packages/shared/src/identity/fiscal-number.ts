import { isValidTaxCode, normalizeTaxCode } from '../accounts/tax-code.ts';

/** The attribute names under which CIE and SPID give the codice fiscale (decision 048). */
export const FISCAL_NUMBER_CLAIMS = ['https://attributes.eid.gov.it/fiscal_number', 'fiscalNumber'] as const;

/**
 * The codice fiscale of an identity provider's attributes: the first of `FISCAL_NUMBER_CLAIMS`
 * present, without the `TINIT-` prefix (ETSI natural-person identifier), spaces removed, upper-case,
 * and only if its check character matches. Null otherwise (missing, not a string, invalid).
 */
export function fiscalNumberOf(claims: Record<string, unknown>): string | null {
  for (const name of FISCAL_NUMBER_CLAIMS) {
    const value = claims[name];
    if (typeof value !== 'string') continue;
    return normalizeFiscalNumber(value);
  }
  return null;
}

/** One attribute value normalised (`TINIT-rssmra85t10a562s` → `RSSMRA85T10A562S`), or null when invalid. */
export function normalizeFiscalNumber(value: string): string | null {
  const code = normalizeTaxCode(value).replace(/^TINIT-/, '');
  return isValidTaxCode(code) ? code : null;
}

const MONTHS = 'ABCDEHLMPRST';
const OMOCODIA = 'LMNPQRSTUV';

/**
 * Day and month of birth encoded in a valid codice fiscale (`MM-DD`; women have 40 added to the day),
 * with the two-digit year: enough to compare with a provider's `birthdate` (YYYY-MM-DD).
 */
export function birthOfTaxCode(code: string): { yy: string; mm: string; dd: string } {
  const digit = (ch: string) => (/[0-9]/.test(ch) ? ch : String(OMOCODIA.indexOf(ch)));
  const yy = digit(code[6]!) + digit(code[7]!);
  const mm = String(MONTHS.indexOf(code[8]!) + 1).padStart(2, '0');
  const day = Number(digit(code[9]!) + digit(code[10]!));
  return { yy, mm, dd: String(day > 40 ? day - 40 : day).padStart(2, '0') };
}

/** False when a provider's `birthdate` (YYYY-MM-DD) contradicts the codice fiscale; true when it agrees or is absent. */
export function birthdateAgrees(code: string, birthdate: unknown): boolean {
  if (typeof birthdate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(birthdate)) return true;
  const { yy, mm, dd } = birthOfTaxCode(code);
  return birthdate.slice(2, 4) === yy && birthdate.slice(5, 7) === mm && birthdate.slice(8, 10) === dd;
}
