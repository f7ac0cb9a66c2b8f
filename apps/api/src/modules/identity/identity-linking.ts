import {
  ACCEPTED_ACR,
  birthdateAgrees,
  fiscalNumberOf,
  type IdentityFailure,
} from '@portale/shared/identity';
import type { Db } from '../../db/client.ts';
import type { ProviderAnswer } from './cie-client.ts';
import { accountsWithTaxCode, findIdentity, type IdentityProvider } from './identity.repository.ts';

/** Names compared as people write them: accents, case, apostrophes, hyphens and spaces do not count. */
export function sameName(a: string, b: string): boolean {
  const norm = (s: string) =>
    s
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z]/g, '');
  return norm(a) === norm(b);
}

/** What the callback does with a verified identity (decision 048, the linking rules of issue 38). */
export type LinkDecision =
  | { kind: 'known'; identityId: number; userId: number }
  | { kind: 'link-verified'; userId: number }
  | { kind: 'link-with-password'; userId: number }
  | { kind: 'register' }
  | { kind: 'refused'; failure: IdentityFailure; userId: number | null; detail?: Record<string, unknown> };

export interface VerifiedPerson {
  provider: IdentityProvider;
  subject: string;
  acr: string | null;
  taxCode: string;
  firstName: string;
  lastName: string;
  /** Other attributes the provider gave (birth date, e-mail, phone), as strings. */
  attributes: Record<string, string>;
}

/** The person of a provider's answer, or the failure that refuses it (level, codice fiscale, names). */
export function personOf(
  provider: IdentityProvider,
  answer: ProviderAnswer,
): VerifiedPerson | { failure: IdentityFailure; detail?: Record<string, unknown> } {
  if (!answer.acr || !(ACCEPTED_ACR as readonly string[]).includes(answer.acr))
    return { failure: 'level_insufficient', detail: { acr: answer.acr } };
  const taxCode = fiscalNumberOf(answer.claims);
  const { given_name: firstName, family_name: lastName } = answer.claims;
  if (!taxCode || typeof firstName !== 'string' || typeof lastName !== 'string' || !firstName || !lastName)
    return { failure: 'fiscal_number_invalid' };
  if (!birthdateAgrees(taxCode, answer.claims.birthdate))
    return { failure: 'identity_mismatch', detail: { reason: 'birthdate' } };
  const attributes: Record<string, string> = {};
  for (const name of ['birthdate', 'email', 'phone_number'] as const) {
    const value = answer.claims[name];
    if (typeof value === 'string' && value.length <= 320) attributes[name] = value;
  }
  return {
    provider,
    subject: answer.subject,
    acr: answer.acr,
    taxCode,
    firstName: firstName.trim(),
    lastName: lastName.trim(),
    attributes,
  };
}

/**
 * The linking rules: an identity already linked signs its user in; otherwise the account with this
 * codice fiscale is looked for (never by e-mail). Verified there → link and sign in; self-declared →
 * the user proves control with the account's password first; none → registration. A name that
 * disagrees with the account, several candidate accounts or a suspended account are refused.
 */
export async function decideLink(db: Db, person: VerifiedPerson): Promise<LinkDecision> {
  const known = await findIdentity(db, person.provider, person.subject);
  if (known) {
    if (known.status !== 'active')
      return { kind: 'refused', failure: 'account_suspended', userId: known.userId };
    return { kind: 'known', identityId: known.id, userId: known.userId };
  }
  const accounts = await accountsWithTaxCode(db, person.taxCode);
  if (accounts.length === 0) return { kind: 'register' };
  const verified = accounts.filter((a) => a.taxCodeVerifiedAt !== null);
  const account = verified.length === 1 ? verified[0]! : accounts.length === 1 ? accounts[0]! : undefined;
  if (!account)
    return {
      kind: 'refused',
      failure: 'account_ambiguous',
      userId: null,
      detail: { accounts: accounts.map((a) => a.id) },
    };
  if (!sameName(account.firstName, person.firstName) || !sameName(account.lastName, person.lastName))
    return {
      kind: 'refused',
      failure: 'identity_mismatch',
      userId: account.id,
      detail: {
        reason: 'name',
        account: { firstName: account.firstName, lastName: account.lastName },
        provider: { firstName: person.firstName, lastName: person.lastName },
      },
    };
  if (account.status !== 'active')
    return { kind: 'refused', failure: 'account_suspended', userId: account.id };
  return account.taxCodeVerifiedAt
    ? { kind: 'link-verified', userId: account.id }
    : { kind: 'link-with-password', userId: account.id };
}
