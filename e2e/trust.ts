import { webcrypto } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as pkijs from 'pkijs';
import { createTestCa, type TestCa } from '../apps/api/test/support/signing-fixtures.ts';
import {
  createListOperator,
  signTrustedList,
  trustedListXml,
} from '../apps/api/test/support/trusted-list-fixtures.ts';

// The qualified-signature trust of the e2e run (decision 032), made for the run and nothing from the
// internet: a test CA listed as a qualified service (CA/QC, granted) in a trusted list signed by a test
// list operator. The config writes them once per run into `var/e2e/trust` and gives the shared API the
// list (TRUSTED_LIST_FILE, TRUSTED_LIST_SIGNER_CERTS); a spec loads the CA to issue its signers and
// starts the CA's OCSP responder on 127.0.0.1 for as long as it needs it.

export const TRUST_SERVICE_NAME = 'Servizio di firma qualificata di test';

const files = (dir: string) => ({
  list: join(dir, 'trusted-list.xml'),
  listSigners: join(dir, 'list-operator.pem'),
  caCertificate: join(dir, 'ca.der'),
  caKey: join(dir, 'ca-key.pkcs8'),
});

/** Writes the list and the CA into `dir`; the API's environment for them. */
export async function prepareTrust(dir: string): Promise<Record<string, string>> {
  mkdirSync(dir, { recursive: true });
  const paths = files(dir);
  const ca = await createTestCa({ name: 'CA qualificata di test (e2e)' });
  const operator = await createListOperator();
  writeFileSync(paths.list, signTrustedList(trustedListXml([{ ca, name: TRUST_SERVICE_NAME }]), operator));
  writeFileSync(paths.listSigners, operator.certificatePem);
  writeFileSync(paths.caCertificate, ca.der);
  writeFileSync(paths.caKey, new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', ca.privateKey)));
  return { TRUSTED_LIST_FILE: paths.list, TRUSTED_LIST_SIGNER_CERTS: paths.listSigners };
}

/** The run's qualified test CA, as `prepareTrust` wrote it. */
export async function loadTrustedCa(dir: string): Promise<TestCa> {
  const paths = files(dir);
  const der = new Uint8Array(readFileSync(paths.caCertificate));
  const privateKey = await webcrypto.subtle.importKey(
    'pkcs8',
    readFileSync(paths.caKey),
    { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    true,
    ['sign'],
  );
  return { certificate: pkijs.Certificate.fromBER(der), privateKey, der };
}
