import { randomBytes, webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignedXml } from 'xml-crypto';
import { taxCodeCheckChar } from '@portale/shared/accounts';
import { createTestCa } from './signing-fixtures.ts';
import { chooserPage } from './test-provider-chooser.ts';
import {
  logoutRequestXml,
  logoutResponseXml,
  readRedirect,
  redirectUrl,
  type LogoutFault,
  type ReceivedRedirect,
} from './saml-idp-logout.ts';

export type { LogoutFault, ReceivedRedirect } from './saml-idp-logout.ts';

/**
 * A local SPID identity provider (decision 052) on 127.0.0.1: it serves its metadata, checks the
 * signature of the AuthnRequest (HTTP-Redirect, with the service provider's certificate) and answers
 * with an auto-posting form carrying a Response whose assertion it signs (xml-crypto, RSA-SHA256).
 * The user's login is no form: the test names the person (and the level, or a fault) beforehand.
 */
export interface SamlTestPerson {
  spidCode: string;
  name: string;
  familyName: string;
  /** The codice fiscale as the provider writes it (usually `TINIT-…`); absent: no attribute. */
  fiscalNumber?: string;
  /** The attribute's name: SPID's `fiscalNumber` (default) or the eIDAS-style URI. */
  fiscalNumberName?: 'fiscalNumber' | 'https://attributes.eid.gov.it/fiscal_number';
  dateOfBirth?: string;
  email?: string;
  mobilePhone?: string;
}

/** What the next Response gets wrong (or how it is signed), for the refusal tests. */
export interface SamlFault {
  acr?: string;
  audience?: string;
  /** The Issuer of both Response and assertion. */
  issuer?: string;
  destination?: string;
  /** `assertion` (default), `both`, or `none` (an unsigned Response). */
  sign?: 'assertion' | 'both' | 'none';
  /** Milliseconds the assertion is valid from now (negative: already expired). Default 5 minutes. */
  validForMs?: number;
  status?: string;
}

/** The AuthnRequest the provider received last, as read after its signature was checked. */
export type ReceivedRequest = ReceivedRedirect;

export interface TestSamlIdp {
  entityId: string;
  name: string;
  metadataUrl: string;
  /** A file with the provider's metadata, as SPID_IDP_METADATA takes it. */
  metadataFile: string;
  /** Our service provider's key and certificate (PEM), as SPID_PRIVATE_KEY / SPID_CERTIFICATE take them. */
  sp: { privateKeyPem: string; certificatePem: string };
  next(person: SamlTestPerson, fault?: SamlFault): void;
  lastRequest(): ReceivedRequest | undefined;
  /** The NameID and SessionIndex of the last assertion it issued. */
  lastIssued(): { nameId: string; sessionIndex: string } | undefined;
  /**
   * Single logout (its `/slo`, HTTP-Redirect): our LogoutRequest is checked with our certificate and
   * answered by a redirect to `spSloUrl` with its signed LogoutResponse (`nextLogout`'s fault, once).
   */
  nextLogout(fault: LogoutFault): void;
  lastLogoutRequest(): ReceivedRedirect | undefined;
  /** Our LogoutResponse to its own LogoutRequest, as it received it. */
  lastLogoutResponse(): ReceivedRedirect | undefined;
  /** Its own signed LogoutRequest (IdP-initiated logout) to `spSloUrl`, as a URL the browser follows. */
  logoutRequestUrl(
    who: { nameId: string; sessionIndex?: string },
    fault?: LogoutFault,
    relayState?: string,
  ): string;
  close(): Promise<void>;
}

const cf = (first15: string) => first15 + taxCodeCheckChar(first15);

/** Test people: a valid CF with `TINIT-`, one with a wrong check character, one without e-mail. */
export const SAML_PEOPLE = {
  valid: {
    spidCode: 'SPID-0001',
    name: 'Paola',
    familyName: 'Galli',
    fiscalNumber: `TINIT-${cf('GLLPLA82D45L219')}`,
    dateOfBirth: '1982-04-05',
    email: 'paola.galli@example.it',
    mobilePhone: '+393331234567',
  },
  odd: {
    spidCode: 'SPID-0002',
    name: 'Carlo',
    familyName: 'Fabbri',
    fiscalNumber: 'TINIT-FBBCRL70A01F205A',
  },
  noEmail: {
    spidCode: 'SPID-0003',
    name: 'Elena',
    familyName: 'Conti',
    fiscalNumber: `TINIT-${cf('CNTLNE91E50H501')}`,
  },
} satisfies Record<string, SamlTestPerson>;

function pem(label: string, der: Uint8Array): string {
  const body = Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}

/** An RSA key and its self-signed certificate (PEM, and the certificate's DER). */
export async function keyPair(name: string) {
  const ca = await createTestCa({ name });
  const pkcs8 = new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', ca.privateKey));
  return {
    privateKeyPem: pem('PRIVATE KEY', pkcs8),
    certificatePem: pem('CERTIFICATE', ca.der),
    der: ca.der,
  };
}

const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const id = () => `_${randomBytes(16).toString('hex')}`;
const SAML_A = 'urn:oasis:names:tc:SAML:2.0:assertion';
const SAML_P = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ENTITY = 'urn:oasis:names:tc:SAML:2.0:nameid-format:entity';

function sign(
  xml: string,
  keys: { privateKeyPem: string; certificatePem: string },
  target: 'Assertion' | 'Response',
) {
  const signature = new SignedXml({
    privateKey: keys.privateKeyPem,
    publicCert: keys.certificatePem,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signature.addReference({
    xpath: `//*[local-name(.)='${target}']`,
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: [
      'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
      'http://www.w3.org/2001/10/xml-exc-c14n#',
    ],
  });
  signature.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: `//*[local-name(.)='${target}']/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return signature.getSignedXml();
}

function attribute(name: string, value: string | undefined) {
  if (value === undefined) return '';
  return (
    `<saml:Attribute Name="${esc(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">` +
    `<saml:AttributeValue xmlns:xs="http://www.w3.org/2001/XMLSchema" ` +
    `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string">${esc(value)}</saml:AttributeValue>` +
    `</saml:Attribute>`
  );
}

/**
 * `host`: the host name of its URLs (default 127.0.0.1; it listens there always). A browser test uses
 * `localhost` like the API, so that the provider's form posts to a same-site ACS on plain http.
 */
/** What the chooser says of each test person (`chooser` below). */
const CHOOSER_PEOPLE: Record<keyof typeof SAML_PEOPLE, string> = {
  valid: 'codice fiscale valido, con e-mail e cellulare',
  odd: 'codice fiscale con carattere di controllo errato: l’accesso è rifiutato',
  noEmail: 'codice fiscale valido, senza e-mail',
};

/**
 * `chooser`: when no test named the person, the provider asks the browser which one (`npm start` in
 * development offers it as a test provider); otherwise such a login is refused.
 */
export async function startSamlIdp(options: {
  name?: string;
  spEntityId: string;
  host?: string;
  chooser?: boolean;
  /** The service provider's single logout service (where its LogoutResponse and LogoutRequest go). */
  spSloUrl?: string;
}): Promise<TestSamlIdp> {
  const idpKeys = await keyPair('IdP SPID di test');
  const spKeys = await keyPair('Fornitore di servizi SPID di test');
  const otherKeys = await keyPair('Chiave estranea');
  const redirectKeys = { privateKeyPem: idpKeys.privateKeyPem, otherPrivateKeyPem: otherKeys.privateKeyPem };
  const spSloUrl = options.spSloUrl ?? '';
  let issued: { nameId: string; sessionIndex: string } | undefined;
  let logoutFault: LogoutFault = {};
  let lastLogoutRequest: ReceivedRedirect | undefined;
  let lastLogoutResponse: ReceivedRedirect | undefined;
  const name = options.name ?? 'SPID di prova (locale)';
  let queued: { person: SamlTestPerson; fault: SamlFault } | undefined;
  let last: ReceivedRequest | undefined;
  let entityId = '';
  let metadata = '';

  const response = (request: ReceivedRequest, acsUrl: string) => {
    const { person, fault } = queued!;
    queued = undefined;
    const now = Date.now();
    const iso = (ms: number) => new Date(now + ms).toISOString();
    const until = iso(fault.validForMs ?? 300_000);
    const issuer = `<saml:Issuer Format="${ENTITY}">${esc(fault.issuer ?? entityId)}</saml:Issuer>`;
    issued = { nameId: id(), sessionIndex: id() };
    const attributes = [
      attribute('spidCode', person.spidCode),
      attribute(person.fiscalNumberName ?? 'fiscalNumber', person.fiscalNumber),
      attribute('name', person.name),
      attribute('familyName', person.familyName),
      attribute('dateOfBirth', person.dateOfBirth),
      attribute('email', person.email),
      attribute('mobilePhone', person.mobilePhone),
    ].join('');
    let xml =
      `<samlp:Response xmlns:samlp="${SAML_P}" xmlns:saml="${SAML_A}" ID="${id()}" Version="2.0" ` +
      `IssueInstant="${iso(0)}" Destination="${esc(fault.destination ?? acsUrl)}" InResponseTo="${request.id}">` +
      issuer +
      `<samlp:Status><samlp:StatusCode Value="${fault.status ?? 'urn:oasis:names:tc:SAML:2.0:status:Success'}"/></samlp:Status>` +
      `<saml:Assertion ID="${id()}" Version="2.0" IssueInstant="${iso(0)}">` +
      issuer +
      `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:transient" ` +
      `NameQualifier="${esc(entityId)}">${issued.nameId}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
      `<saml:SubjectConfirmationData InResponseTo="${request.id}" NotOnOrAfter="${until}" Recipient="${esc(acsUrl)}"/>` +
      `</saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${iso(Math.min(0, fault.validForMs ?? 0) - 60_000)}" NotOnOrAfter="${until}">` +
      `<saml:AudienceRestriction><saml:Audience>${esc(fault.audience ?? options.spEntityId)}</saml:Audience>` +
      `</saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${iso(0)}" SessionIndex="${issued.sessionIndex}"><saml:AuthnContext>` +
      `<saml:AuthnContextClassRef>${esc(fault.acr ?? 'https://www.spid.gov.it/SpidL2')}</saml:AuthnContextClassRef>` +
      `</saml:AuthnContext></saml:AuthnStatement>` +
      `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` +
      `</saml:Assertion></samlp:Response>`;
    const how = fault.sign ?? 'assertion';
    if (how !== 'none') xml = sign(xml, idpKeys, 'Assertion');
    if (how === 'both') xml = sign(xml, idpKeys, 'Response');
    return Buffer.from(xml).toString('base64');
  };

  const readRequest = (rawQuery: string): ReceivedRequest =>
    readRedirect(rawQuery, 'SAMLRequest', spKeys.certificatePem);

  const singleLogout = (url: URL, res: ServerResponse) => {
    const raw = url.search.slice(1);
    if (url.searchParams.has('SAMLResponse')) {
      lastLogoutResponse = readRedirect(raw, 'SAMLResponse', spKeys.certificatePem);
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('Uscita completata');
      return;
    }
    const request = (lastLogoutRequest = readRedirect(raw, 'SAMLRequest', spKeys.certificatePem));
    if (!request.signatureValid) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('LogoutRequest non firmata');
      return;
    }
    const fault = logoutFault;
    logoutFault = {};
    const xml = logoutResponseXml(entityId, spSloUrl, request.id, fault);
    const location = redirectUrl(
      spSloUrl,
      'SAMLResponse',
      xml,
      redirectKeys,
      fault,
      request.relayState ?? '',
    );
    res.writeHead(302, { location }).end();
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', entityId);
    if (url.pathname === '/metadata') {
      res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(metadata);
      return;
    }
    if (url.pathname === '/sso') {
      const request = readRequest(url.search.slice(1));
      last = request;
      const acsUrl = request.doc.documentElement.getAttribute('AssertionConsumerServiceURL') ?? '';
      const asked = url.searchParams.get('persona') as keyof typeof SAML_PEOPLE | null;
      if (!queued && options.chooser && request.signatureValid) {
        if (!asked || !(asked in SAML_PEOPLE)) {
          const people = Object.fromEntries(
            Object.entries(SAML_PEOPLE).map(([key, p]) => [
              key,
              { label: `${p.name} ${p.familyName}`, detail: CHOOSER_PEOPLE[key as keyof typeof SAML_PEOPLE] },
            ]),
          );
          res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(chooserPage(name, people, (key) => `${url.pathname}${url.search}&persona=${key}`));
          return;
        }
        queued = { person: SAML_PEOPLE[asked], fault: {} };
      }
      if (!request.signatureValid || !queued) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('AuthnRequest non firmata o nessun utente');
        return;
      }
      const samlResponse = response(request, acsUrl);
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html lang="it"><head><title>IdP SPID di prova</title></head>` +
            `<body onload="document.forms[0].submit()"><form method="post" action="${esc(acsUrl)}">` +
            `<input type="hidden" name="SAMLResponse" value="${samlResponse}">` +
            `<button type="submit">Continua</button></form></body></html>`,
        );
      return;
    }
    if (url.pathname === '/slo') return singleLogout(url, res);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  entityId = `http://${options.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
  const certificate = Buffer.from(idpKeys.der).toString('base64');
  metadata =
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">` +
    `<md:IDPSSODescriptor protocolSupportEnumeration="${SAML_P}" WantAuthnRequestsSigned="true">` +
    `<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data>` +
    `<ds:X509Certificate>${certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    `<md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${entityId}/slo"/>` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${entityId}/sso"/>` +
    `</md:IDPSSODescriptor><md:Organization><md:OrganizationName xml:lang="it">${esc(name)}</md:OrganizationName>` +
    `<md:OrganizationDisplayName xml:lang="it">${esc(name)}</md:OrganizationDisplayName>` +
    `<md:OrganizationURL xml:lang="it">${entityId}</md:OrganizationURL></md:Organization></md:EntityDescriptor>`;
  const dir = mkdtempSync(join(tmpdir(), 'portale-spid-idp-'));
  const metadataFile = join(dir, 'idp-metadata.xml');
  writeFileSync(metadataFile, metadata);

  return {
    entityId,
    name,
    metadataUrl: `${entityId}/metadata`,
    metadataFile,
    sp: { privateKeyPem: spKeys.privateKeyPem, certificatePem: spKeys.certificatePem },
    next(person, fault = {}) {
      queued = { person, fault };
    },
    lastRequest: () => last,
    lastIssued: () => issued,
    nextLogout(fault) {
      logoutFault = fault;
    },
    lastLogoutRequest: () => lastLogoutRequest,
    lastLogoutResponse: () => lastLogoutResponse,
    logoutRequestUrl: (who, fault = {}, relayState) =>
      redirectUrl(
        spSloUrl,
        'SAMLRequest',
        logoutRequestXml(entityId, spSloUrl, who, fault),
        redirectKeys,
        fault,
        relayState,
      ),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The browser at the provider: follows our start's redirect and reads the auto-posting form. */
export async function loginAtIdp(location: string): Promise<{ action: string; samlResponse: string }> {
  const res = await fetch(location);
  const html = await res.text();
  if (!res.ok) throw new Error(`IdP: ${res.status} ${html}`);
  const action = /action="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
  const samlResponse = /name="SAMLResponse" value="([^"]+)"/.exec(html)![1]!;
  return { action, samlResponse };
}
