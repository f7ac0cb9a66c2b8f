import { z } from 'zod';

/** Ids are positive integers (architecture §0); anything else is a 404. */
export const IdParamSchema = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** Parses an id route param; `undefined` when it is not a positive integer. */
export function parseId(raw: string | undefined): number | undefined {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) return undefined;
  const result = IdParamSchema.safeParse(raw);
  return result.success ? result.data : undefined;
}
