import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';

/** Domains of Italian certified e-mail (PEC) providers, which cannot receive ordinary mail. */
const PEC_DOMAINS = [
  'pec.it',
  'legalmail.it',
  'postacert.it',
  'pec.aruba.it',
  'arubapec.it',
  'pecveneto.it',
  'cert.legalmail.it',
  'postecert.it',
  'pec.istruzione.it',
  'casellapec.com',
  'sicurezzapostale.it',
  'registerpec.it',
  'gigapec.it',
  'mypec.eu',
  'pecimprese.it',
];

/** True for a PEC address (known providers, any `pec`/`postacert`/`cert` label in the domain). */
export function isCertifiedEmail(email: string): boolean {
  const domain = email.trim().toLowerCase().split('@')[1] ?? '';
  if (PEC_DOMAINS.some((d) => domain === d || domain.endsWith(`.${d}`))) return true;
  return domain
    .split('.')
    .some(
      (label) =>
        label === 'pec' ||
        label === 'postacert' ||
        label === 'legalmail' ||
        (label.endsWith('pec') && label.length <= 8),
    );
}

/** A mobile number in E.164 (`+393331234567`); Italian when no prefix is given; undefined when invalid. */
export function normalizeMobilePhone(input: string): string | undefined {
  const parsed = parsePhoneNumberFromString(input.trim(), 'IT');
  if (!parsed || !parsed.isValid()) return undefined;
  return parsed.number;
}

/** Shows only the country prefix and the last three digits: `+39 ••• ••• •567`. */
export function maskPhone(e164: string): string {
  const prefix = e164.startsWith('+39') ? '+39' : e164.slice(0, 3);
  return `${prefix} ••• ••• •${e164.slice(-3)}`;
}
