import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';

const SAML_P = 'urn:oasis:names:tc:SAML:2.0:protocol';
const SAML_A = 'urn:oasis:names:tc:SAML:2.0:assertion';
/** The largest inflated logout message read (a real one is a few kilobytes). */
const MAX_INFLATED_BYTES = 100_000;

/**
 * A provider's LogoutRequest or LogoutResponse of the HTTP-Redirect binding (SAMLRequest or
 * SAMLResponse: base64 of the deflated XML), read before its signature is checked: it names the
 * provider (whose certificates check it) and, for a response, our request it answers.
 */
export interface LogoutMessage {
  kind: 'request' | 'response';
  id: string | null;
  issuer: string | null;
  destination: string | null;
  /** A LogoutResponse: our LogoutRequest's ID; its status and message. */
  inResponseTo: string | null;
  status: string | null;
  statusMessage: string | null;
  /** A LogoutRequest: whom and which session the provider ends. */
  nameId: string | null;
  sessionIndex: string | null;
}

const childOf = (parent: Element, ns: string, local: string): Element | undefined =>
  Array.from(parent.childNodes).find(
    (n): n is Element =>
      n.nodeType === 1 && (n as Element).localName === local && (n as Element).namespaceURI === ns,
  );

const text = (element: Element | undefined) => element?.textContent?.trim() || null;

/** The message of a redirect query, or null when it is not a SAML logout message at all. */
export function readLogoutMessage(encoded: string, kind: LogoutMessage['kind']): LogoutMessage | null {
  let root: Element | null | undefined;
  try {
    const xml = inflateRawSync(Buffer.from(encoded, 'base64'), {
      maxOutputLength: MAX_INFLATED_BYTES,
    }).toString('utf8');
    const fail = (m: string) => {
      throw new Error(m);
    };
    const doc = new DOMParser({ errorHandler: { error: fail, fatalError: fail } }).parseFromString(
      xml,
      'text/xml',
    );
    root = doc?.documentElement as unknown as Element | null;
  } catch {
    return null;
  }
  const local = kind === 'request' ? 'LogoutRequest' : 'LogoutResponse';
  if (!root || root.localName !== local || root.namespaceURI !== SAML_P) return null;
  const status = childOf(root, SAML_P, 'Status');
  const code = status && childOf(status, SAML_P, 'StatusCode');
  return {
    kind,
    id: root.getAttribute('ID') || null,
    issuer: text(childOf(root, SAML_A, 'Issuer')),
    destination: root.getAttribute('Destination') || null,
    inResponseTo: root.getAttribute('InResponseTo') || null,
    status: code?.getAttribute('Value') || null,
    statusMessage: text(status && childOf(status, SAML_P, 'StatusMessage')),
    nameId: text(childOf(root, SAML_A, 'NameID')),
    sessionIndex: text(childOf(root, SAML_P, 'SessionIndex')),
  };
}
