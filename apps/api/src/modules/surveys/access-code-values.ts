import { randomInt } from 'node:crypto';
import { ACCESS_CODE_ALPHABET, ACCESS_CODE_LENGTH, ACCESS_CODE_RESERVED } from '@portale/shared/surveys';
import { dateToRomeLocal, romeLocalToDate } from '@portale/shared/bookings';

const RESERVED_CODES: ReadonlySet<string> = new Set(ACCESS_CODE_RESERVED.map((w) => w.toUpperCase()));

/** A code of 7 characters drawn uniformly from the 31 unambiguous capitals and digits (crypto.randomInt; decision 037). */
export function generateCode(): string {
  let code = '';
  do {
    code = '';
    for (let i = 0; i < ACCESS_CODE_LENGTH; i++)
      code += ACCESS_CODE_ALPHABET[randomInt(ACCESS_CODE_ALPHABET.length)];
  } while (RESERVED_CODES.has(code));
  return code;
}

const DAY_MS = 86_400_000;

/** Today in Rome, `YYYY-MM-DD`. */
export const romeToday = (now: Date) => dateToRomeLocal(now).slice(0, 10);

/** The midnight (Europe/Rome) that ends `day` (`YYYY-MM-DD`): a code expiring on `day` works all that day. */
export function endOfRomeDay(day: string): Date {
  const next = new Date(new Date(`${day}T12:00:00Z`).getTime() + DAY_MS).toISOString().slice(0, 10);
  return romeLocalToDate(`${next}T00:00`)!;
}

/** The midnight (Europe/Rome) that began the day of `now`: daily caps count from there (decision 029). */
export const startOfRomeDay = (now: Date): Date => romeLocalToDate(`${romeToday(now)}T00:00`)!;
