import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;
/** zxcvbn score (0–4) a new password must reach. */
export const PASSWORD_MIN_SCORE = 3;

/** Words of this portal that must never be a password (ASVS 6.2.11). */
export const PASSWORD_CONTEXT_WORDS = [
  'portale',
  'portalescuole',
  'portale scuole',
  'scuola',
  'scuole',
  'sylla',
  'cromos',
  'indagine',
  'insegnante',
  'educatore',
];

export const PASSWORD_MESSAGES = {
  tooShort: `La password deve avere almeno ${PASSWORD_MIN_LENGTH} caratteri.`,
  tooLong: `La password può avere al massimo ${PASSWORD_MAX_LENGTH} caratteri.`,
  common: 'Questa password è tra quelle più diffuse o già violate: scegline un’altra.',
  context: 'La password non può contenere il tuo nome, il tuo indirizzo e-mail o il nome del portale.',
  weak: 'La password è troppo facile da indovinare: usa una frase più lunga o aggiungi parole poco comuni.',
  mismatch: 'Le due password non coincidono.',
} as const;

let factory: ZxcvbnFactory | undefined;
let commonList: Set<string> | undefined;

function zxcvbn(): ZxcvbnFactory {
  factory ??= new ZxcvbnFactory({ dictionary: { ...dictionary }, graphs: adjacencyGraphs });
  return factory;
}

/** True when the password is in the bundled list of common and breached passwords. */
export function isCommonPassword(password: string): boolean {
  commonList ??= new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));
  return commonList.has(password.toLowerCase());
}

export interface PasswordContext {
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

export interface PasswordStrength {
  /** 0 (very weak) … 4 (very strong). */
  score: 0 | 1 | 2 | 3 | 4;
  /** True when the password satisfies the whole policy. */
  acceptable: boolean;
  /** The first rule broken, in Italian; null when acceptable. */
  problem: string | null;
}

function personalWords(context: PasswordContext): string[] {
  const local = context.email?.split('@')[0]?.toLowerCase() ?? '';
  const words = [local, ...local.split(/[._+-]/), context.firstName ?? '', context.lastName ?? ''];
  return words.map((w) => w.trim().toLowerCase()).filter((w) => w.length >= 3);
}

/** Scores a password and applies the policy of quality.md A1–A2 (shared by the meter and the API). */
export function checkPasswordStrength(password: string, context: PasswordContext = {}): PasswordStrength {
  const personal = personalWords(context);
  const result = zxcvbn().check(password, [...PASSWORD_CONTEXT_WORDS, ...personal]);
  const score = result.score as PasswordStrength['score'];
  const lower = password.toLowerCase();
  let problem: string | null = null;
  if ([...password].length < PASSWORD_MIN_LENGTH) problem = PASSWORD_MESSAGES.tooShort;
  else if ([...password].length > PASSWORD_MAX_LENGTH) problem = PASSWORD_MESSAGES.tooLong;
  else if (isCommonPassword(password)) problem = PASSWORD_MESSAGES.common;
  else if (PASSWORD_CONTEXT_WORDS.some((w) => lower.replace(/[\s\d\W_]+/g, '') === w.replace(/\s/g, ''))) {
    problem = PASSWORD_MESSAGES.context;
  } else if (personal.some((w) => lower.includes(w))) problem = PASSWORD_MESSAGES.context;
  else if (score < PASSWORD_MIN_SCORE) problem = PASSWORD_MESSAGES.weak;
  return { score, acceptable: problem === null, problem };
}
