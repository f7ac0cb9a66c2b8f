/** Codice fiscale of a natural person: 16 characters, omocodia letters allowed in the digit places. */
const SHAPE = /^[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/;

const ODD: Record<string, number> = {
  0: 1,
  1: 0,
  2: 5,
  3: 7,
  4: 9,
  5: 13,
  6: 15,
  7: 17,
  8: 19,
  9: 21,
  A: 1,
  B: 0,
  C: 5,
  D: 7,
  E: 9,
  F: 13,
  G: 15,
  H: 17,
  I: 19,
  J: 21,
  K: 2,
  L: 4,
  M: 18,
  N: 20,
  O: 11,
  P: 3,
  Q: 6,
  R: 8,
  S: 12,
  T: 14,
  U: 16,
  V: 10,
  W: 22,
  X: 25,
  Y: 24,
  Z: 23,
};

function evenValue(ch: string): number {
  return /[0-9]/.test(ch) ? Number(ch) : ch.charCodeAt(0) - 65;
}

/** The check character (16th) of the first 15 characters. */
export function taxCodeCheckChar(first15: string): string {
  let sum = 0;
  for (let i = 0; i < 15; i += 1) {
    const ch = first15[i]!;
    sum += i % 2 === 0 ? ODD[ch]! : evenValue(ch);
  }
  return String.fromCharCode(65 + (sum % 26));
}

/** Upper-cases and strips spaces. */
export function normalizeTaxCode(input: string): string {
  return input.replace(/\s+/g, '').toUpperCase();
}

/** True for a well-formed codice fiscale (omocodia included) whose check character matches. */
export function isValidTaxCode(input: string): boolean {
  const code = normalizeTaxCode(input);
  if (!SHAPE.test(code)) return false;
  return taxCodeCheckChar(code.slice(0, 15)) === code[15];
}
