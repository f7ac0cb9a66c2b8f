import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCa, type TestCa } from '../../../../test/support/signing-fixtures.ts';
import {
  createListOperator,
  signTrustedList,
  trustedListXml,
  CA_PKC,
  type ListOperator,
} from '../../../../test/support/trusted-list-fixtures.ts';
import { TrustedListError, loadTrustedList, statusAt, statusName } from './trusted-list.ts';

let operator: ListOperator;
let otherOperator: ListOperator;
let ca: TestCa;
let plainCa: TestCa;

beforeAll(async () => {
  [operator, otherOperator, ca, plainCa] = await Promise.all([
    createListOperator(),
    createListOperator('Un altro operatore'),
    createTestCa(),
    createTestCa({ name: 'CA non qualificata' }),
  ]);
});

const withdrawnAt = new Date('2026-02-01T00:00:00Z');

function listXml(sequenceNumber = 7) {
  return trustedListXml(
    [
      {
        ca,
        name: 'Firma qualificata di test',
        history: [
          { status: 'withdrawn', from: withdrawnAt },
          { status: 'granted', from: new Date('2016-07-01T00:00:00Z') },
        ],
      },
      { ca: plainCa, name: 'Certificati non qualificati', type: CA_PKC },
    ],
    { sequenceNumber },
  );
}

describe('loadTrustedList', () => {
  it('verifies the operator’s signature and reads the qualified CA services with their status history', () => {
    const list = loadTrustedList(
      signTrustedList(listXml(), operator),
      [otherOperator.certificatePem, operator.certificatePem],
      'test.xml',
    );
    expect(list).toMatchObject({ territory: 'IT', sequenceNumber: 7, source: 'test.xml' });
    expect(list.sha256).toMatch(/^[0-9a-f]{64}$/);
    // The non-qualified CA service (CA/PKC) is not kept.
    expect(list.services).toHaveLength(1);
    const [service] = list.services;
    expect(service).toMatchObject({
      name: 'Firma qualificata di test',
      provider: 'Prestatore qualificato di test S.p.A.',
    });
    expect(Buffer.from(service!.certificates[0]!).equals(Buffer.from(ca.der))).toBe(true);
    expect(statusName(statusAt(service!, new Date('2026-01-15T00:00:00Z'))!.status)).toBe('granted');
    expect(statusName(statusAt(service!, new Date('2026-02-02T00:00:00Z'))!.status)).toBe('withdrawn');
    expect(statusAt(service!, new Date('2015-01-01T00:00:00Z'))).toBeNull();
  });

  it('refuses a list signed by another operator, an unsigned list, a list changed after signing, and not-a-list', () => {
    const signed = signTrustedList(listXml(), operator);
    const cases: [string, string, string[]][] = [
      ['other operator', signTrustedList(listXml(), otherOperator), [operator.certificatePem]],
      ['unsigned', listXml(), [operator.certificatePem]],
      [
        'tampered status',
        signed.replace('Svcstatus/withdrawn', 'Svcstatus/granted'),
        [operator.certificatePem],
      ],
      [
        'tampered name',
        signed.replace('Firma qualificata di test<', 'Firma qualificata di prova<'),
        [operator.certificatePem],
      ],
      ['no signer configured', signed, []],
      ['not XML', 'non è XML', [operator.certificatePem]],
      ['another root', '<a xmlns="urn:x"/>', [operator.certificatePem]],
    ];
    for (const [name, xml, signers] of cases) {
      expect(() => loadTrustedList(xml, signers, 'x'), name).toThrow(TrustedListError);
    }
  });

  it('refuses a wrapped list: a second, unsigned provider list is never read', () => {
    const signed = signTrustedList(listXml(), operator);
    // Move the signed content into an extra element and put a forged list in its place.
    const forged = signed.replace(
      '<TrustServiceProviderList>',
      '<TrustServiceProviderList><TrustServiceProvider><TSPInformation><TSPName><Name xml:lang="it">Falso</Name></TSPName></TSPInformation><TSPServices/></TrustServiceProvider>',
    );
    expect(() => loadTrustedList(forged, [operator.certificatePem], 'x')).toThrow(TrustedListError);
  });
});
