import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyPair, startSamlIdp, type TestSamlIdp } from '../../../test/support/saml-idp-fixtures.ts';
import { signWholeDocument as signMetadata } from '../../../test/support/trusted-list-fixtures.ts';
import { MetadataRefused, verifiedMetadata } from './spid-metadata-trust.ts';
import { SpidIdpRegistry, type SpidSettings } from './spid-settings.ts';

// AgID's registry of the SPID identity providers is a signed document (decision 052, amended
// 2026-11-29): with AgID's certificate configured, only what it signed counts, until its validUntil,
// read again every SPID_METADATA_REFRESH_HOURS with the last good read kept when a read fails.

type Keys = Awaited<ReturnType<typeof keyPair>>;
let agid: Keys;
let other: Keys;
let idpA: TestSamlIdp;
let idpB: TestSamlIdp;
/** What the local "registry" answers: a document, or an HTTP status. */
let served: string | number = 503;
let server: Server;
let registryUrl = '';

const NOW = new Date('2026-11-29T10:00:00Z');
const entityOf = (idp: TestSamlIdp) => readFileSync(idp.metadataFile, 'utf8');
/** A registry document of the providers, as AgID publishes it (an EntitiesDescriptor). */
function registry(idps: TestSamlIdp[], validUntil = '2026-12-31T00:00:00Z'): string {
  return (
    `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" validUntil="${validUntil}">` +
    idps
      .map((idp) => entityOf(idp).replace(' xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"', ''))
      .join('') +
    '</md:EntitiesDescriptor>'
  );
}

beforeAll(async () => {
  [agid, other] = await Promise.all([keyPair('AgID di prova'), keyPair('Non AgID')]);
  [idpA, idpB] = await Promise.all([
    startSamlIdp({ spEntityId: 'https://sp.example/spid', name: 'Provider A' }),
    startSamlIdp({ spEntityId: 'https://sp.example/spid', name: 'Provider B' }),
  ]);
  server = createServer((_req, res) => {
    if (typeof served === 'number') res.writeHead(served).end();
    else res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(served);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  registryUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/spid-entities-idps.xml`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await Promise.all([idpA?.close(), idpB?.close()]);
});

describe('verifiedMetadata', () => {
  it('accepts the whole document signed by the configured certificate and returns what was signed', () => {
    const signed = signMetadata(registry([idpA, idpB]), agid);
    const trusted = verifiedMetadata(signed, agid.certificatePem, NOW);
    expect(trusted).toContain('Provider A');
    expect(trusted).toContain('Provider B');
  });

  it.each([
    ['unsigned', () => registry([idpA])],
    ['signed by another key', () => signMetadata(registry([idpA]), other)],
    ['changed after signing', () => signMetadata(registry([idpA]), agid).replace('Provider A', 'Provider Z')],
    [
      'a provider added beside the signed content',
      () =>
        signMetadata(registry([idpA]), agid).replace(
          '</md:EntitiesDescriptor>',
          `${entityOf(idpB).replace(' xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"', '')}</md:EntitiesDescriptor>`,
        ),
    ],
    ['past its validUntil', () => signMetadata(registry([idpA], '2026-11-01T00:00:00Z'), agid)],
    ['not metadata', () => '<html><body>Manutenzione</body></html>'],
  ])('refuses a document %s', (_label, make) => {
    expect(() => verifiedMetadata(make(), agid.certificatePem, NOW)).toThrow(MetadataRefused);
  });
});

describe('SpidIdpRegistry with AgID’s certificate', () => {
  let now = NOW;
  const failures: unknown[] = [];
  const settings = (): SpidSettings => ({
    entityId: 'https://sp.example/spid',
    acsUrl: 'https://sp.example/api/auth/spid/acs',
    sloUrl: 'https://sp.example/api/auth/spid/logout',
    metadataUrl: 'https://sp.example/api/auth/spid/metadata',
    privateKey: '',
    certificate: '',
    idpSources: [registryUrl],
    metadataCertificate: agid.certificatePem,
    metadataRefreshMs: 24 * 3_600_000,
    organization: {
      name: 'Portale Scuole',
      url: 'https://sp.example',
      ipaCode: 'x',
      email: 'a@b.it',
      phone: null,
    },
    insecure: true,
  });
  const names = async (r: SpidIdpRegistry) => (await r.choices()).map((c) => c.name);
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('refuses an unsigned registry at the first read (the login then says the provider is unreachable)', async () => {
    served = registry([idpA]);
    const r = new SpidIdpRegistry(settings(), { now: () => now });
    await expect(r.list()).rejects.toThrow(MetadataRefused);
  });

  it('reads the signed registry, keeps it for a day, then reads it again; a failed read keeps the last good one', async () => {
    now = NOW;
    failures.length = 0;
    const r = new SpidIdpRegistry(settings(), { now: () => now, onRefreshFailure: (e) => failures.push(e) });
    served = signMetadata(registry([idpA]), agid);
    expect(await names(r)).toEqual(['Provider A']);

    // AgID adds a provider: seen only after the refresh interval.
    served = signMetadata(registry([idpA, idpB]), agid);
    now = new Date(NOW.getTime() + 3_600_000);
    expect(await names(r)).toEqual(['Provider A']);
    now = new Date(NOW.getTime() + 25 * 3_600_000);
    expect(await names(r)).toEqual(['Provider A']); // the refresh runs in the background
    await settle();
    expect(await names(r)).toEqual(['Provider A', 'Provider B']);

    // The next day the registry is down, then serves a forged document: the last good read stays.
    served = 503;
    now = new Date(NOW.getTime() + 50 * 3_600_000);
    await names(r);
    await settle();
    served = signMetadata(registry([idpB]), other);
    now = new Date(NOW.getTime() + 51 * 3_600_000);
    expect(await names(r)).toEqual(['Provider A', 'Provider B']);
    await settle();
    expect(await names(r)).toEqual(['Provider A', 'Provider B']);
    expect(failures).toHaveLength(2);
    expect(failures[1]).toBeInstanceOf(MetadataRefused);

    // Past the good read's validUntil it is not used any more: with no good read, no provider.
    now = new Date('2027-01-01T00:00:00Z');
    await expect(r.list()).rejects.toThrow();
  });
});
