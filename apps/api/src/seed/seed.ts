import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { PERMISSIONS, ROLES, type Permission, type Role } from '@portale/shared/auth';
import { DEV_APP_SECRET } from '../env.ts';
import { hashPassword } from '../lib/passwords.ts';
import { sealSecret } from '../lib/secret-box.ts';
import { seedMessageTemplates } from './message-templates.ts';
import { seedDemoActions } from '../modules/actions/actions-seed.ts';
import { seedDemoAdhesion } from '../modules/adhesions/adhesion-signing.service.ts';
import { transitionAdhesion } from '../modules/adhesions/adhesion-state.repository.ts';
import { seedDemoBookings } from '../modules/bookings/bookings-seed.ts';
import { seedDemoFieldWork } from '../modules/field-work/field-work-seed.repository.ts';
import { seedDemoSubstitutions } from '../modules/substitutions/substitutions-seed.ts';
import { seedPublicContent } from '../modules/public/public-seed.ts';
import { seedDemoSurveys } from '../modules/surveys/surveys-seed.ts';
import { seedDemoAccessCodes } from '../modules/surveys/access-codes-seed.ts';
import { seedDemoResponses } from './responses-seed.ts';
import type { Db } from '../db/client.ts';
import { seedDemoOnboarding } from './demo-onboarding.ts';
import { seedRegistry, type RegistryProgress } from './registry.ts';
import { withTransaction } from '../db/transaction.ts';
import {
  institutes,
  mfaFactors,
  permissions,
  roles,
  userPermissions,
  userRoles,
  users,
} from '../db/schema/index.ts';

export const DEMO_PASSWORD = 'Portale.Demo.2026';
const DAY_MS = 86_400_000;
/** TOTP secret enrolled for the demo staff accounts, printed on start so people can compute codes. */
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
const DEMO_MFA_ROLES: readonly Role[] = ['super-admin', 'sylla', 'cromos'];

export interface DemoAccount {
  email: string;
  firstName: string;
  lastName: string;
  description: string;
  roles: Role[];
  permissions?: Permission[];
  mustChangePassword?: boolean;
  phoneVerified?: boolean;
  /** For principals and first contacts: the adhesion state of their demo institute. */
  institute?: {
    slot: number;
    adhesionState: 'iscritto' | 'adesione_firmata';
    as: 'principal' | 'first-contact';
  };
}

/** The demo accounts of the foundation issue, one per role and one per pending condition. */
export const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    email: 'superadmin@demo.test',
    firstName: 'Silvia',
    lastName: 'Amministratrice',
    description: 'super-admin',
    roles: ['super-admin'],
  },
  {
    email: 'sylla@demo.test',
    firstName: 'Stefano',
    lastName: 'Sylla',
    description: 'staff Sylla',
    roles: ['sylla'],
  },
  {
    email: 'cromos@demo.test',
    firstName: 'Chiara',
    lastName: 'Cromos',
    description: 'staff Cromos',
    roles: ['cromos'],
  },
  {
    email: 'rilevatore@demo.test',
    firstName: 'Roberto',
    lastName: 'Rilevatore',
    description: 'rilevatore',
    roles: ['detector'],
  },
  {
    email: 'dirigente@demo.test',
    firstName: 'Daniela',
    lastName: 'Dirigente',
    description: 'dirigente scolastica, adesione firmata',
    roles: ['school.principal'],
    institute: { slot: 0, adhesionState: 'adesione_firmata', as: 'principal' },
  },
  {
    email: 'referente@demo.test',
    firstName: 'Renato',
    lastName: 'Referente',
    description: "referente d'istituto",
    roles: ['institute.first-contact'],
    institute: { slot: 0, adhesionState: 'adesione_firmata', as: 'first-contact' },
  },
  {
    email: 'insegnante@demo.test',
    firstName: 'Irene',
    lastName: 'Insegnante',
    description: 'insegnante',
    roles: ['teacher'],
  },
  {
    email: 'utenti@demo.test',
    firstName: 'Ugo',
    lastName: 'Utenti',
    description: 'nessun ruolo di staff, permesso user.index',
    roles: [],
    permissions: ['user.index'],
  },
  {
    email: 'cambio-password@demo.test',
    firstName: 'Carla',
    lastName: 'Cambio',
    description: 'deve cambiare la password',
    roles: ['teacher'],
    mustChangePassword: true,
  },
  {
    email: 'da-verificare@demo.test',
    firstName: 'Davide',
    lastName: 'Verifica',
    description: 'telefono non verificato',
    roles: ['teacher'],
    phoneVerified: false,
  },
  {
    email: 'dirigente-senza-firma@demo.test',
    firstName: 'Franca',
    lastName: 'Senzafirma',
    description: 'dirigente scolastica, adesione non firmata',
    roles: ['school.principal'],
    institute: { slot: 1, adhesionState: 'iscritto', as: 'principal' },
  },
];

async function ensureNames<T extends { id: number; name: string }>(
  db: Db,
  table: typeof roles | typeof permissions,
  names: readonly string[],
): Promise<Map<string, number>> {
  await db
    .insert(table)
    .values(names.map((name) => ({ name })))
    .onConflictDoNothing();
  const rows = (await db
    .select()
    .from(table)
    .where(inArray(table.name, [...names]))) as T[];
  return new Map(rows.map((r) => [r.name, r.id]));
}

/** Roles and permissions of seed-spec §6; idempotent. */
export async function seedRolesAndPermissions(db: Db) {
  const roleIds = await ensureNames(db, roles, ROLES);
  const permissionIds = await ensureNames(db, permissions, PERMISSIONS);
  return { roleIds, permissionIds };
}

/**
 * Creates missing demo accounts (password unchanged for existing ones) and links their institutes. The
 * demo institutes' transitions are dated before `now` (the tests pass their own clock's time, so their
 * history stays older than what a test then does, whatever the real date).
 */
export async function seedDemoAccounts(
  db: Db,
  { appSecret = DEV_APP_SECRET, now = new Date() }: { appSecret?: string; now?: Date } = {},
): Promise<void> {
  const { roleIds, permissionIds } = await seedRolesAndPermissions(db);
  // Hashed only when an account is missing: a restart with every demo account in place skips the KDF.
  let passwordHash: string | undefined;
  const demoInstitutes = await db
    .select({ id: institutes.id })
    .from(institutes)
    .where(eq(institutes.isStateSchool, true))
    .orderBy(asc(institutes.ministryCode))
    .limit(2);
  const slots = new Map<
    number,
    { state: 'iscritto' | 'adesione_firmata'; principalUserId: number | undefined }
  >();
  for (const account of DEMO_ACCOUNTS) {
    const [existing] = await db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${account.email}`);
    const userId =
      existing?.id ??
      (
        await db
          .insert(users)
          .values({
            email: account.email,
            passwordHash: (passwordHash ??= await hashPassword(DEMO_PASSWORD)),
            firstName: account.firstName,
            lastName: account.lastName,
            phone: '+393331234567',
            emailVerifiedAt: now,
            phoneVerifiedAt: account.phoneVerified === false ? null : now,
            mustChangePassword: account.mustChangePassword ?? false,
          })
          .returning({ id: users.id })
      )[0]!.id;
    if (account.roles.length) {
      await db
        .insert(userRoles)
        .values(account.roles.map((r) => ({ userId, roleId: roleIds.get(r)! })))
        .onConflictDoNothing();
    }
    if (account.permissions?.length) {
      await db
        .insert(userPermissions)
        .values(account.permissions.map((p) => ({ userId, permissionId: permissionIds.get(p)! })))
        .onConflictDoNothing();
    }
    if (account.roles.some((r) => DEMO_MFA_ROLES.includes(r))) {
      await db
        .insert(mfaFactors)
        .values({
          userId,
          secretEncrypted: sealSecret(appSecret, DEMO_TOTP_SECRET),
          enabledAt: now,
          createdAt: now,
        })
        .onConflictDoNothing();
    }
    const target = account.institute && demoInstitutes[account.institute.slot];
    if (account.institute && target && !existing) {
      const link =
        account.institute.as === 'principal' ? { principalUserId: userId } : { firstContactUserId: userId };
      await db
        .update(institutes)
        .set(link)
        .where(and(eq(institutes.id, target.id)));
      slots.set(target.id, {
        state: account.institute.adhesionState,
        principalUserId:
          account.institute.as === 'principal' ? userId : slots.get(target.id)?.principalUserId,
      });
    }
  }
  // The demo institutes walk the state machine like real ones (dated transitions), and a signed
  // adhesion has its document, its signature and its item in the review queue.
  for (const [instituteId, { state, principalUserId }] of slots) {
    const path =
      state === 'adesione_firmata' ? (['iscritto', 'adesione_firmata'] as const) : (['iscritto'] as const);
    for (const [step, to] of path.entries()) {
      const at = new Date(now.getTime() - (path.length - step) * 3 * DAY_MS);
      await withTransaction(db, (tx) => transitionAdhesion(tx, { instituteId, to, actorUserId: null, at }));
      if (to === 'adesione_firmata' && principalUserId)
        await seedDemoAdhesion(db, instituteId, principalUserId, at);
    }
  }
}

export interface SeedOptions {
  demo: boolean;
  registry: 'full' | 'sample' | 'none';
  dataDir: string;
  appSecret?: string;
  /** Hears the progress of a first registry load (rows stored, total rows). */
  onRegistryProgress?: RegistryProgress;
}

/** The whole seed: roles, the national registry, demo accounts. Safe to run on every start. */
export async function seed(db: Db, options: SeedOptions): Promise<{ institutesAdded: number }> {
  await seedRolesAndPermissions(db);
  await seedMessageTemplates(db);
  await seedPublicContent(db);
  await seedDemoSurveys(db);
  const institutesAdded =
    options.registry === 'none'
      ? 0
      : await seedRegistry(db, options.dataDir, options.registry, options.onRegistryProgress);
  if (options.demo) {
    await seedDemoAccounts(db, { appSecret: options.appSecret });
    await seedDemoOnboarding(db);
    await seedDemoFieldWork(db, new Date());
    await seedDemoSubstitutions(db, new Date());
    await seedDemoBookings(db, new Date());
    await seedDemoActions(db, new Date());
    await seedDemoAccessCodes(db, new Date());
    await seedDemoResponses(db, new Date());
  }
  return { institutesAdded };
}
