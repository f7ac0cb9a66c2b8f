import type { Env } from './env.ts';
import type { Db } from './db/client.ts';
import type { Clock } from './lib/clock.ts';
import type { AuthContext } from './plugins/session/session.ts';
import type { Ceilings } from './plugins/rate-limits.ts';
import type { FileStore } from './lib/file-store.ts';
import type { Gates } from './lib/gates.ts';
import type { TrustedListSource } from './modules/adhesions/trust/trusted-list-source.ts';
import type { RevocationChecker } from './modules/adhesions/trust/revocation.ts';

declare module 'fastify' {
  interface FastifyInstance {
    env: Env;
    db: Db;
    clock: Clock;
    /** Uploaded and generated files (decision 030). */
    files: FileStore;
    /** Bounds on heavy work in this process: exports and costly searches. */
    gates: Gates;
    /** The verified ETSI trusted list qualified signatures chain to (decision 032). */
    trustedList: TrustedListSource;
    /** Asks a certificate's CA whether it was revoked (OCSP, then CRL), answers cached (decision 032). */
    revocation: RevocationChecker;
    /** The portal-wide hourly ceilings (plugins/rate-limits.ts). */
    ceilings: Ceilings;
    /** Closed surveys' stored results (decision 058): `refresh()` computes what is missing or stale. */
    resultSnapshots: { refresh(): Promise<void> };
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}
