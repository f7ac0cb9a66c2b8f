import { z } from 'zod';

/** The one spelling of an id in a path: digits, no sign, no leading zero (not `01`, `0x1`, `1e0`, ` 1`). */
const CANONICAL_ID = /^[1-9]\d{0,15}$/;

/**
 * Ids are positive integers (architecture §0) written one way; anything else is a 404. A number
 * passes as it is; a string must be canonical, so `/x/01` and `/x/1` are never two names of one record.
 */
export const IdParamSchema = z
  .union([z.number(), z.string().regex(CANONICAL_ID)])
  .pipe(z.coerce.number<string | number>().int().positive().max(Number.MAX_SAFE_INTEGER));

/** Parses an id route param; `undefined` when it is not a positive integer. */
export function parseId(raw: string | undefined): number | undefined {
  if (!raw || !CANONICAL_ID.test(raw)) return undefined;
  const result = IdParamSchema.safeParse(raw);
  return result.success ? result.data : undefined;
}

/**
 * What a person's name never contains (issue 32): control characters (C0 with CR, LF and TAB, DEL,
 * C1), the Unicode line and paragraph separators and the bidirectional controls. A name goes into
 * e-mails, CSV and XLSX exports, PDFs and logs, where each of these breaks or disguises a line.
 */
const NAME_CONTROL = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

export const PERSON_NAME_CONTROL_MESSAGE =
  'Scrivi il nome su una sola riga, senza a capo, tabulazioni o caratteri di controllo.';

/** Whether a name is free of control characters (see NAME_CONTROL). */
export function isPlainName(value: string): boolean {
  return !NAME_CONTROL.test(value);
}
