import { createGuardrails, generateSecret, generateURI, verify } from 'otplib';
import { randomBytes } from 'node:crypto';
import { sha256 } from '../../lib/crypto.ts';

export const TOTP_ISSUER = 'Portale Scuole';

/**
 * New secrets are 20 bytes; the guard is lowered to 10 bytes only so that the fixed demo secret
 * JBSWY3DPEHPK3PXP (80 bits, required by the issue for the demo staff) is accepted.
 */
export const TOTP_GUARDRAILS = createGuardrails({ MIN_SECRET_BYTES: 10 });

export function newTotpSecret(): string {
  return generateSecret();
}

export function totpUri(secret: string, accountName: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: accountName, secret });
}

/**
 * Checks a 6-digit code at `now`, accepting one 30 s step of clock drift either way. A code of a time
 * step at or before `lastTimeStep` is refused (no replay). Returns the matched time step or null.
 */
export async function verifyTotp(
  secret: string,
  code: string,
  now: Date,
  lastTimeStep: number | null,
): Promise<number | null> {
  const epoch = Math.floor(now.getTime() / 1000);
  const result = await verify({
    secret,
    token: code,
    epoch,
    epochTolerance: 30,
    guardrails: TOTP_GUARDRAILS,
    ...(lastTimeStep !== null ? { afterTimeStep: lastTimeStep } : {}),
  }).catch(() => ({ valid: false as const }));
  if (!result.valid) return null;
  return 'timeStep' in result && typeof result.timeStep === 'number'
    ? result.timeStep
    : Math.floor(epoch / 30) + result.delta;
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten one-time recovery codes `xxxxx-xxxxx` (about 49 bits each). */
export function newRecoveryCodes(count = 10): string[] {
  return Array.from({ length: count }, () => {
    const chars = [...randomBytes(10)].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

export function hashRecoveryCode(code: string): string {
  return sha256(
    `recovery|${code
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')}`,
  );
}
