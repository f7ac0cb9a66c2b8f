import { readCookie } from '../../lib/cookies.ts';
import {
  CONSENT_CONFIG,
  CONSENT_COOKIES,
  CONSENT_MAX_AGE_SECONDS,
  ENABLED_SEPARATOR,
  REFUSAL_VALID_MS,
  allIdsString,
} from './consent-config.ts';

export interface StoredConsent {
  /** Consent given: `ncc_c` equals the full list of configured ids, on the current policy version. */
  given: boolean;
  /** Enabled ids still configured (empty when consent is not given). */
  enabledIds: string[];
  /** The banner must be shown: no valid choice, or a refusal older than six months. */
  mustAsk: boolean;
}

const secure = () => (location.protocol === 'https:' || location.hostname === 'localhost' ? '; Secure' : '');

/** Seed attributes: Path=/, SameSite=Strict, Secure outside plain-http development, one year. */
export function writeConsentCookie(name: string, value: string): void {
  document.cookie = `${name}=${encodeURIComponent(value).replace(/%7E/gi, '~')}; Max-Age=${CONSENT_MAX_AGE_SECONDS}; Path=/; SameSite=Strict${secure()}`;
}

export function deleteConsentCookie(name: string): void {
  document.cookie = `${name}=; Max-Age=-1; Path=/; SameSite=Strict${secure()}`;
}

/** Reads the stored choice as seed-behaviour §4.2 decides it, plus the six-month refusal rule. */
export function readStoredConsent(now: number = Date.now(), source: string = document.cookie): StoredConsent {
  const configured = new Set<string>([...CONSENT_CONFIG.necessary, ...CONSENT_CONFIG.optional]);
  const given =
    readCookie(CONSENT_COOKIES.given, source) === allIdsString() &&
    readCookie(CONSENT_COOKIES.version, source) === CONSENT_CONFIG.policyVersion;
  const enabledIds = given
    ? (readCookie(CONSENT_COOKIES.enabled, source) ?? '')
        .split(ENABLED_SEPARATOR)
        .filter((id) => configured.has(id))
    : [];
  const refusedAt = Number(readCookie(CONSENT_COOKIES.refusedAt, source));
  const refusedSomething = given && CONSENT_CONFIG.optional.some((id) => !enabledIds.includes(id));
  const refusalExpired =
    refusedSomething &&
    (!Number.isFinite(refusedAt) || refusedAt <= 0 || now - refusedAt >= REFUSAL_VALID_MS);
  return { given, enabledIds, mustAsk: !given || refusalExpired };
}

/** Stores a choice: necessary ids are always enabled; a refusal of any optional id records its time. */
export function storeChoice(enabledOptional: readonly string[], now: number = Date.now()): string[] {
  const enabledIds = [
    ...CONSENT_CONFIG.necessary,
    ...CONSENT_CONFIG.optional.filter((id) => enabledOptional.includes(id)),
  ];
  writeConsentCookie(CONSENT_COOKIES.given, allIdsString());
  writeConsentCookie(CONSENT_COOKIES.enabled, enabledIds.join(ENABLED_SEPARATOR));
  writeConsentCookie(CONSENT_COOKIES.version, CONSENT_CONFIG.policyVersion);
  if (enabledIds.length < CONSENT_CONFIG.necessary.length + CONSENT_CONFIG.optional.length) {
    writeConsentCookie(CONSENT_COOKIES.refusedAt, String(now));
  } else deleteConsentCookie(CONSENT_COOKIES.refusedAt);
  return enabledIds;
}

/** The pseudonymous id sent with each proof of consent (random, never linked to a person). */
export function anonymousId(): string {
  const current = readCookie(CONSENT_COOKIES.anonymousId);
  if (current && /^[0-9a-f-]{36}$/.test(current)) return current;
  const id = typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : uuidFromRandomValues();
  writeConsentCookie(CONSENT_COOKIES.anonymousId, id);
  return id;
}

function uuidFromRandomValues(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
