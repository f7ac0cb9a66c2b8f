import type { z } from 'zod';
import type { RegistrationBodySchema } from '@portale/shared/accounts/password';
import type { Db } from '../../db/client.ts';
import { withTransaction, type Tx } from '../../db/transaction.ts';
import { auditWrite } from '../../lib/audit.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { enqueueMessage } from '../messages/index.ts';
import { submitForReview } from '../review-queue/index.ts';
import { sendEmailVerification } from './email-verification.service.ts';
import {
  assignRoleByName,
  findUserByEmail,
  insertTeacherProfile,
  insertUser,
} from './registration.repository.ts';
import { schoolSiteExists } from './school-sites.repository.ts';

type Registration = z.output<typeof RegistrationBodySchema>;

const KIND_LABELS = { insegnante: 'insegnante', educatore: 'educatore', altro: 'partecipante' } as const;
const ROLE_OF_KIND = { insegnante: 'teacher', educatore: 'educator', altro: 'teacher' } as const;

/**
 * Creates the user, the teacher profile (in attesa, in the `insegnanti` review queue), the verification
 * link and the welcome e-mail in one transaction. An address already registered gets a notice instead; the caller answers the same.
 */
export async function registerParticipant(
  db: Db,
  input: Registration,
  ctx: {
    now: Date;
    ip: string;
    webUrl: string;
    /** Runs in the transaction once the user exists (the CIE identity it was registered with, decision 048). */
    onCreated?: (tx: Tx, userId: number) => Promise<void>;
  },
) {
  const passwordHash = await hashPassword(input.password);
  if (input.schoolSiteId && !(await schoolSiteExists(db, input.schoolSiteId)))
    throw fieldError('schoolSiteId', 'Il plesso scelto non esiste.');
  const { now, ip, webUrl } = ctx;
  await withTransaction(db, async (tx) => {
    const existing = await findUserByEmail(tx, input.email);
    if (existing) {
      await enqueueMessage(tx, {
        templateKey: 'email.registrazione-esistente',
        recipient: existing.email,
        data: {
          firstName: existing.firstName,
          loginLink: `${webUrl}/auth/login`,
          forgotLink: `${webUrl}/auth/forgot-password`,
        },
        now,
      });
      await auditWrite(
        tx,
        { userId: null, ip: ip ?? null, at: now },
        { action: 'account.registration.duplicate', entity: 'user', entityId: existing.id },
      );
      return;
    }
    const user = await insertUser(
      tx,
      {
        email: input.email,
        passwordHash,
        firstName: input.firstName,
        lastName: input.lastName,
        phone: input.phone,
        taxCode: input.taxCode ?? null,
      },
      now,
    );
    await ctx.onCreated?.(tx, user.id);
    await assignRoleByName(tx, user.id, ROLE_OF_KIND[input.kind]);
    const profileId = await insertTeacherProfile(
      tx,
      {
        userId: user.id,
        kind: input.kind,
        schoolSiteId: input.schoolSiteId ?? null,
        subjects: input.subjects,
      },
      now,
    );
    // The new registration waits in the `insegnanti` review queue.
    await submitForReview(tx, { type: 'insegnanti', subjectId: profileId, at: now });
    await sendEmailVerification(tx, user, now, webUrl);
    await enqueueMessage(tx, {
      templateKey: 'email.benvenuto',
      recipient: user.email,
      data: {
        firstName: user.firstName,
        kindLabel: KIND_LABELS[input.kind],
        loginLink: `${webUrl}/auth/login`,
      },
      now,
    });
    await auditWrite(
      tx,
      { userId: user.id, ip: ip ?? null, at: now },
      {
        action: 'account.registered',
        entity: 'user',
        entityId: user.id,
        after: { kind: input.kind, schoolSiteId: input.schoolSiteId ?? null },
      },
    );
  });
}
