import { generate } from 'otplib';
import { DEMO_TOTP_SECRET } from '../src/seed/seed.ts';
import { TOTP_GUARDRAILS } from '../src/modules/auth/totp.ts';

/** The TOTP code of `secret` (demo staff secret by default) at `now`. */
export function authenticator(now: Date, secret = DEMO_TOTP_SECRET): Promise<string> {
  return generate({ secret, epoch: Math.floor(now.getTime() / 1000), guardrails: TOTP_GUARDRAILS });
}
