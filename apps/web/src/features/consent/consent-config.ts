import { POLICY_VERSION } from '@portale/shared/public';

/**
 * The one list of cookie ids (seed-behaviour §4): necessary first, then optional, in this order.
 * Adding, removing or renaming an id asks every visitor again. Ids must not look like numbers or booleans.
 */
export const CONSENT_CONFIG = {
  necessary: ['necessari'],
  optional: ['analitici'],
  policyVersion: POLICY_VERSION,
} as const;

export type OptionalCookieId = (typeof CONSENT_CONFIG.optional)[number];

/** Names of the cookies written by the consent feature. */
export const CONSENT_COOKIES = {
  /** "is consent given": the concatenation of all configured ids. */
  given: 'ncc_c',
  /** Enabled ids joined by '~'. */
  enabled: 'ncc_e',
  /** Time (ms since epoch) of the last refusal of the optional cookies. */
  refusedAt: 'ncc_r',
  /** Policy version the choice was made on. */
  version: 'ncc_v',
  /** Random pseudonymous id sent with the proof of consent. */
  anonymousId: 'ncc_id',
} as const;

export const ENABLED_SEPARATOR = '~';
export const CONSENT_MAX_AGE_SECONDS = 365 * 24 * 3600;
/** A refusal is not asked again for six months (Garante, 10 June 2021). */
export const REFUSAL_VALID_MS = 183 * 24 * 3600 * 1000;

export function allIdsString(
  config: { necessary: readonly string[]; optional: readonly string[] } = CONSENT_CONFIG,
): string {
  return [...config.necessary, ...config.optional].join('');
}

/** Labels and descriptions shown in the banner and the preferences. */
export const COOKIE_GROUPS = [
  {
    id: 'necessari',
    label: 'Cookie tecnici necessari',
    description:
      'Servono per accedere, mantenere la sessione sicura e ricordare la tua scelta sui cookie. Sono sempre attivi.',
  },
  {
    id: 'analitici',
    label: 'Cookie analitici (Google Analytics 4)',
    description:
      'Ci dicono in forma aggregata quali pagine sono consultate, per migliorare il sito. Sono attivi solo con il tuo consenso; la pubblicità resta sempre disattivata.',
  },
] as const;
