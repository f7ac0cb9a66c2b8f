import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Tx } from '../../db/transaction.ts';
import { auditWrite } from '../../lib/audit.ts';
import { sha256 } from '../../lib/crypto.ts';
import { IDENTITY_COOKIES } from './identity-responder.ts';
import {
  findPendingIdentity,
  insertIdentity,
  markTaxCodeVerified,
  usePendingIdentity,
} from './identity.repository.ts';

interface NamedPerson {
  firstName: string;
  lastName: string;
  taxCode?: string | null | undefined;
}

/**
 * The verified identity a registration in this browser completes (decision 048): after a login with
 * CIE that found no account, the registration takes the provider's name, surname and codice fiscale
 * (whatever the form sent) and, once the user exists, links the identity and marks the codice fiscale
 * verified, in the registration's transaction. Undefined without a usable pending registration.
 */
export async function pendingRegistrationOf(app: FastifyInstance, request: FastifyRequest) {
  const token = request.cookies[IDENTITY_COOKIES.pending];
  if (!token) return undefined;
  const now = app.clock.now();
  const pending = await findPendingIdentity(app.db, sha256(token), now);
  if (!pending || pending.userId !== null) return undefined;
  return {
    body: <B extends NamedPerson>(body: B): B => ({
      ...body,
      firstName: pending.firstName,
      lastName: pending.lastName,
      taxCode: pending.taxCode,
    }),
    link: async (tx: Tx, userId: number) => {
      if (!(await usePendingIdentity(tx, pending.id, now))) return;
      const row = {
        userId,
        provider: pending.provider,
        subject: pending.subject,
        taxCode: pending.taxCode,
        acr: pending.acr,
      };
      await insertIdentity(tx, row, now);
      await markTaxCodeVerified(tx, userId, pending.taxCode, pending.provider, now);
      const actor = { userId, ip: request.ip, at: now };
      await auditWrite(tx, actor, {
        action: 'account.tax_code.verified',
        entity: 'user',
        entityId: userId,
        after: { taxCode: pending.taxCode, source: pending.provider, at: now.toISOString() },
      });
      await auditWrite(tx, actor, {
        action: 'identity.linked',
        entity: 'user',
        entityId: userId,
        after: { provider: pending.provider, acr: pending.acr, proof: 'registration' },
      });
    },
  };
}
