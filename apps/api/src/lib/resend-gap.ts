import { HttpError } from './http-error.ts';

/**
 * 429 while the last code (SMS or e-mail) was sent less than `gapMs` ago, with the seconds to wait in
 * the message and in Retry-After. The one wording of every "send me a code again" button.
 */
export function assertResendGap(last: Date | null | undefined, gapMs: number, now: Date): void {
  const waitMs = last ? last.getTime() + gapMs - now.getTime() : 0;
  if (waitMs <= 0) return;
  const seconds = String(Math.ceil(waitMs / 1000));
  throw new HttpError(
    429,
    'code_recently_sent',
    `Ti abbiamo appena inviato un codice: puoi chiederne un altro tra ${seconds} secondi.`,
    { 'retry-after': seconds },
  );
}
