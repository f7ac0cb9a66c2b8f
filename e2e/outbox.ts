import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';

// The API of the e2e run writes e-mails and SMS here (MAIL_DIR, SMS_DIR in playwright.config.ts); an
// API a spec starts itself (own-api.ts) writes them to var/e2e/<name>-mail and -sms.
const MAIL_DIR = fileURLToPath(new URL('../var/e2e/mail', import.meta.url));
const SMS_DIR = fileURLToPath(new URL('../var/e2e/sms', import.meta.url));

/** The folders an API writes its e-mails and SMS to: the shared e2e API's, or those of `startOwnApi({ name })`. */
export interface Outbox {
  mailDir: string;
  smsDir: string;
}
export const SHARED_OUTBOX: Outbox = { mailDir: MAIL_DIR, smsDir: SMS_DIR };
export function ownOutbox(name: string): Outbox {
  return {
    mailDir: fileURLToPath(new URL(`../var/e2e/${name}-mail`, import.meta.url)),
    smsDir: fileURLToPath(new URL(`../var/e2e/${name}-sms`, import.meta.url)),
  };
}

async function filesIn(dir: string, suffix: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => f.endsWith(suffix)).sort();
  } catch {
    return [];
  }
}

/** Text of an .eml with quoted-printable soft breaks and escapes undone and base64 parts decoded. */
function decodeMail(raw: string): string {
  const qp = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const base64 = [
    ...raw.matchAll(/Content-Transfer-Encoding: base64\r?\n(?:[\w-]+:.*\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/g),
  ].map((m) => Buffer.from(m[1]!.replace(/\s/g, ''), 'base64').toString('utf8'));
  return [qp, ...base64].join('\n');
}

/** The newest message to `recipient` whose file name carries `templateKey`, waiting for the outbox worker. */
async function newest(
  dir: string,
  suffix: string,
  templateKey: string,
  recipient: string,
  decode: (raw: string) => string,
): Promise<string> {
  let found = '';
  await expect
    .poll(
      async () => {
        for (const file of (await filesIn(dir, suffix)).filter((f) => f.includes(templateKey)).reverse()) {
          const raw = await readFile(`${dir}/${file}`, 'utf8');
          if (raw.includes(recipient)) {
            found = decode(raw);
            return true;
          }
        }
        return false;
      },
      { message: `${templateKey} to ${recipient}`, timeout: 15_000 },
    )
    .toBe(true);
  return found;
}

/** The link with `?token=` of the newest e-mail of a template to an address. */
export async function mailLink(
  recipient: string,
  templateKey: string,
  outbox: Outbox = SHARED_OUTBOX,
): Promise<string> {
  const text = await newest(outbox.mailDir, '.eml', templateKey, recipient, decodeMail);
  const link = /https?:\/\/[^\s"<>]+[?&]token=[\w.~%-]+/.exec(text)?.[0];
  if (!link) throw new Error(`No link in ${templateKey} to ${recipient}`);
  return link;
}

/** The 6-digit code of the newest SMS of a template (default the phone check's) to a number (E.164). */
export async function smsCode(
  phoneE164: string,
  outbox: Outbox = SHARED_OUTBOX,
  templateKey = 'sms.codice',
): Promise<string> {
  const text = await newest(outbox.smsDir, '.txt', templateKey, phoneE164, (raw) => raw);
  const code = /\b(\d{6})\b/.exec(text.split('\n\n').slice(1).join('\n'))?.[1];
  if (!code) throw new Error(`No code in the SMS to ${phoneE164}`);
  return code;
}

/** The decoded text (headers, text and HTML parts) of the newest e-mail of a template to an address. */
export function mailText(recipient: string, templateKey: string): Promise<string> {
  return newest(MAIL_DIR, '.eml', templateKey, recipient, decodeMail);
}
