/**
 * Is a signer certificate a qualified signature certificate at a given (trusted) time?
 * - valid at that time;
 * - not self-signed, and its chain (pkijs' CertificateChainValidationEngine, with the CMS's own
 *   certificates as intermediates) ends at the certificate of a qualified CA service (CA/QC) of the
 *   trusted list;
 * - that service's status in force at that time is qualified (`granted`);
 * - the certificate carries the ETSI qualified statements QcCompliance and QcSSCD (EN 319 412-5),
 *   read with @peculiar/asn1-x509-qualified.
 * No ASN.1 or path building is written here: only the decisions.
 */
import { webcrypto } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { QCStatements } from '@peculiar/asn1-x509-qualified';
import * as pkijs from 'pkijs';
import {
  SERVICE_TYPE,
  isQualifiedStatus,
  statusAt,
  statusName,
  type TrustService,
  type TrustedList,
} from './trusted-list.ts';

type EngineCrypto = ConstructorParameters<typeof pkijs.CryptoEngine>[0]['crypto'];
const engine = new pkijs.CryptoEngine({
  name: 'node-webcrypto',
  crypto: webcrypto as unknown as EngineCrypto,
});

export const QC_STATEMENTS_OID = '1.3.6.1.5.5.7.1.3';
export const QC = {
  compliance: '0.4.0.1862.1.1',
  sscd: '0.4.0.1862.1.4',
} as const;

export type QualifiedFailure =
  | 'certificate_expired'
  | 'certificate_self_signed'
  | 'issuer_not_qualified'
  | 'service_not_granted'
  | 'certificate_not_qualified';

export type QualifiedCheck =
  | {
      ok: true;
      service: { provider: string; name: string; type: string; status: string; statusSince: Date };
      qcStatements: string[];
      /** Signer first, the listed CA last. */
      path: pkijs.Certificate[];
    }
  | { ok: false; code: QualifiedFailure; detail: string };

function der(certificate: pkijs.Certificate): Buffer {
  return Buffer.from(certificate.toSchema(true).toBER(false));
}

function sameDer(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
}

/** The statement ids of the certificate's qcStatements extension (none when it has none or it does not parse). */
export function qcStatementIds(certificate: pkijs.Certificate): string[] {
  const extension = certificate.extensions?.find((item) => item.extnID === QC_STATEMENTS_OID);
  if (!extension) return [];
  try {
    const statements = AsnConvert.parse(extension.extnValue.getValue(), QCStatements);
    return statements.map((statement) => statement.statementId);
  } catch {
    return [];
  }
}

export function validAt(certificate: pkijs.Certificate, at: Date): boolean {
  return (
    certificate.notBefore.value.getTime() <= at.getTime() &&
    at.getTime() <= certificate.notAfter.value.getTime()
  );
}

async function isSelfSigned(certificate: pkijs.Certificate): Promise<boolean> {
  if (
    !sameDer(
      certificate.issuer.toSchema().toBER(false) as unknown as Uint8Array,
      certificate.subject.toSchema().toBER(false) as unknown as Uint8Array,
    )
  ) {
    // A different issuer name: not self-issued (it may still be signed by its own key, which the chain refuses).
    return false;
  }
  try {
    return await certificate.verify(undefined, engine);
  } catch {
    return true; // self-issued and not verifiable: no CA behind it either
  }
}

function loadCertificate(bytes: Uint8Array): pkijs.Certificate | null {
  try {
    return pkijs.Certificate.fromBER(new Uint8Array(bytes));
  } catch {
    return null;
  }
}

export async function checkQualifiedCertificate(input: {
  signer: pkijs.Certificate;
  /** The other certificates the CMS carries (possible intermediates). */
  intermediates: pkijs.Certificate[];
  at: Date;
  list: TrustedList;
}): Promise<QualifiedCheck> {
  const { signer, at, list } = input;
  if (!validAt(signer, at))
    return {
      ok: false,
      code: 'certificate_expired',
      detail: 'signer certificate not valid at the trusted time',
    };
  if (await isSelfSigned(signer))
    return { ok: false, code: 'certificate_self_signed', detail: 'self-signed certificate' };

  const listed = await chainToListedService({
    certificate: signer,
    intermediates: input.intermediates,
    at,
    list,
    type: SERVICE_TYPE.qualifiedCa,
  });
  if (!listed.ok)
    return {
      ok: false,
      code: listed.code === 'not_listed' ? 'issuer_not_qualified' : 'service_not_granted',
      detail: listed.detail,
    };
  const { path, service, status } = listed;
  const qcStatements = qcStatementIds(signer);
  if (!qcStatements.includes(QC.compliance) || !qcStatements.includes(QC.sscd)) {
    return {
      ok: false,
      code: 'certificate_not_qualified',
      detail: `qcStatements: ${qcStatements.join(', ') || 'none'}`,
    };
  }
  return {
    ok: true,
    service: {
      provider: service.provider,
      name: service.name,
      type: service.type,
      status: statusName(status.status),
      statusSince: status.from,
    },
    qcStatements,
    path,
  };
}

/**
 * The path from `certificate` (through the intermediates given) to the certificate of a service of
 * the list of `type` (pkijs' CertificateChainValidationEngine, checked at `at`), and that service's
 * status at `at`, which must be qualified. A certificate that is itself the service's identity (a
 * time-stamping unit listed by its own certificate) is its own path.
 */
export async function chainToListedService(input: {
  certificate: pkijs.Certificate;
  intermediates: pkijs.Certificate[];
  at: Date;
  list: TrustedList;
  type: string;
}): Promise<
  | {
      ok: true;
      path: pkijs.Certificate[];
      service: TrustService;
      status: NonNullable<ReturnType<typeof statusAt>>;
    }
  | { ok: false; code: 'not_listed' | 'not_granted'; detail: string }
> {
  const { certificate, at, list } = input;
  const anchors: { certificate: pkijs.Certificate; der: Uint8Array; service: TrustService }[] = [];
  for (const service of list.services.filter((item) => item.type === input.type)) {
    for (const bytes of service.certificates) {
      const loaded = loadCertificate(bytes);
      if (loaded) anchors.push({ certificate: loaded, der: bytes, service });
    }
  }
  if (anchors.length === 0)
    return { ok: false, code: 'not_listed', detail: `no ${input.type} service on the trusted list` };
  const ownDer = der(certificate);
  let path: pkijs.Certificate[] = [];
  if (anchors.some((anchor) => sameDer(anchor.der, ownDer))) path = [certificate];
  else {
    const chainEngine = new pkijs.CertificateChainValidationEngine({
      trustedCerts: anchors.map((anchor) => anchor.certificate),
      certs: [...input.intermediates.filter((item) => !sameDer(der(item), ownDer)), certificate],
      checkDate: at,
    });
    try {
      const result = await chainEngine.verify({}, engine);
      if (!result.result || !result.certificatePath)
        return { ok: false, code: 'not_listed', detail: `chain: ${result.resultMessage}` };
      path = result.certificatePath;
    } catch (error) {
      const message =
        error && typeof error === 'object' && 'resultMessage' in error
          ? String(error.resultMessage)
          : String(error);
      return { ok: false, code: 'not_listed', detail: `chain: ${message}` };
    }
  }
  const anchorDer = der(path.at(-1)!);
  const anchor = anchors.find((item) => sameDer(item.der, anchorDer));
  if (!anchor) return { ok: false, code: 'not_listed', detail: 'chain does not end at a listed service' };
  const status = statusAt(anchor.service, at);
  if (!status || !isQualifiedStatus(status.status)) {
    return {
      ok: false,
      code: 'not_granted',
      detail: `service status at ${at.toISOString()}: ${status ? statusName(status.status) : 'not yet listed'}`,
    };
  }
  return { ok: true, path, service: anchor.service, status };
}
