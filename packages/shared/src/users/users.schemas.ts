import { z } from 'zod';
import { isPlainName, PERSON_NAME_CONTROL_MESSAGE } from '../validation/index.ts';
import { PERMISSIONS, ROLES } from '../auth/roles.ts';
import {
  ExactTotalSchema,
  listResponseSchema,
  optionalEnum,
  PaginationSchema,
  QueryBooleanSchema,
  SearchTextSchema,
  sortSchema,
} from '../lists/list-query.ts';

/** Account states (product §3). */
export const USER_STATUSES = ['active', 'suspended'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
export const USER_STATUS_LABELS: Record<UserStatus, string> = { active: 'Attivo', suspended: 'Sospeso' };

export const UserSummarySchema = z.object({
  id: z.number().int(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  roles: z.array(z.enum(ROLES)),
  /** Direct permissions (not those a role brings). */
  permissions: z.array(z.enum(PERMISSIONS)),
  status: z.enum(USER_STATUSES),
  /** Login locked after too many failed attempts (until `lockedUntil` on the detail). */
  locked: z.boolean(),
  mfaEnrolled: z.boolean(),
  emailVerified: z.boolean(),
  phoneVerified: z.boolean(),
  lastLoginAt: z.string().nullable(),
  createdAt: z.string(),
});
export type UserSummary = z.infer<typeof UserSummarySchema>;

export const USER_SORTS = ['name', 'email', 'status', 'lastLoginAt', 'createdAt'] as const;

/** Filters shared by the list and its export. */
export const UserFiltersSchema = z.object({
  q: SearchTextSchema,
  role: optionalEnum(ROLES, 'Ruolo'),
  permission: optionalEnum(PERMISSIONS, 'Permesso'),
  status: optionalEnum(USER_STATUSES, 'Stato'),
  locked: QueryBooleanSchema,
  sort: sortSchema(USER_SORTS),
});
export const UserListQuerySchema = UserFiltersSchema.extend(PaginationSchema.shape).extend(
  ExactTotalSchema.shape,
);
export type UserListQuery = z.output<typeof UserListQuerySchema>;
export const UserListResponseSchema = listResponseSchema(UserSummarySchema);

/** How a user can log in (the `auth.login` audit's method): `mfa` is password and TOTP code. */
export const LOGIN_METHODS = ['password', 'mfa', 'cie', 'spid'] as const;
export type LoginMethodName = (typeof LOGIN_METHODS)[number];

/** The user's last login: how, at which level (CIE, SPID: the provider's `acr`), and when. */
export const LastLoginSchema = z.object({
  method: z.enum(LOGIN_METHODS),
  acr: z.string().nullable(),
  at: z.string(),
});
export type LastLogin = z.infer<typeof LastLoginSchema>;

export const UserDetailSchema = UserSummarySchema.extend({
  phone: z.string().nullable(),
  emailVerifiedAt: z.string().nullable(),
  phoneVerifiedAt: z.string().nullable(),
  mustChangePassword: z.boolean(),
  lockedUntil: z.string().nullable(),
  /** Sessions still open (not revoked, not expired). */
  activeSessions: z.number().int(),
  /** How they last logged in (null: never, or before logins were audited with their method). */
  lastLogin: LastLoginSchema.nullable(),
  /** The user's teacher/educator profile, when there is one. */
  teacherProfileId: z.number().int().nullable(),
  updatedAt: z.string(),
});
export type UserDetail = z.infer<typeof UserDetailSchema>;

/** A name: spaces trimmed and collapsed; a control character (CR, LF, TAB…) is refused, not collapsed. */
const name = (label: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && isPlainName(v) ? v.trim().replace(/\s+/g, ' ') : v),
    z
      .string({ error: `Inserisci il ${label}.` })
      .min(1, `Inserisci il ${label}.`)
      .max(100, `Il ${label} può contenere al massimo 100 caratteri.`)
      .refine(isPlainName, PERSON_NAME_CONTROL_MESSAGE),
  );

/** A set of roles (duplicates dropped); an unknown role is a 422. */
const RoleListSchema = z
  .array(z.enum(ROLES, { error: 'Ruolo non valido.' }), { error: 'Indica i ruoli come elenco.' })
  .max(ROLES.length)
  .transform((list) => ROLES.filter((r) => list.includes(r)));
const PermissionListSchema = z
  .array(z.enum(PERMISSIONS, { error: 'Permesso non valido.' }), { error: 'Indica i permessi come elenco.' })
  .max(PERMISSIONS.length)
  .transform((list) => PERMISSIONS.filter((p) => list.includes(p)));

const NO_ACCESS_MESSAGE = 'Scegli almeno un ruolo o un permesso.';

/** A new user: an e-mail invites them to set their password. */
export const UserCreateSchema = z
  .object({
    firstName: name('nome'),
    lastName: name('cognome'),
    email: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
      z
        .email({ error: 'Inserisci un indirizzo e-mail valido.' })
        .max(254, 'L’indirizzo e-mail è troppo lungo.'),
    ),
    roles: RoleListSchema.default([]),
    permissions: PermissionListSchema.default([]),
  })
  .strict()
  .refine((v) => v.roles.length + v.permissions.length > 0, { path: ['roles'], message: NO_ACCESS_MESSAGE });
export type UserCreate = z.output<typeof UserCreateSchema>;

/**
 * What staff may change on a user: names, the e-mail address (a typo corrected: the new address must
 * be verified again, the old one is told; decision 041), roles and direct permissions (each optional).
 */
export const UserUpdateSchema = z
  .object({
    firstName: name('nome').optional(),
    lastName: name('cognome').optional(),
    email: z
      .preprocess(
        (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
        z
          .email({ error: 'Inserisci un indirizzo e-mail valido.' })
          .max(254, 'L’indirizzo e-mail è troppo lungo.'),
      )
      .optional(),
    /** A mobile number (the API turns it into E.164 and answers 422 when it is not one); it must be verified again by SMS. */
    phone: z
      .string({ error: 'Inserisci il numero di cellulare.' })
      .trim()
      .min(1, 'Inserisci il numero di cellulare.')
      .max(30, 'Il numero di cellulare è troppo lungo.')
      .optional(),
    roles: RoleListSchema.optional(),
    permissions: PermissionListSchema.optional(),
  })
  .strict();
export type UserUpdate = z.output<typeof UserUpdateSchema>;

/** The answer of every user action: what happened, in Italian, and the user as it is now. */
export const UserActionResultSchema = z.object({ message: z.string(), user: UserDetailSchema });
export type UserActionResult = z.infer<typeof UserActionResultSchema>;

/** The actions of the user page, by path segment. */
export const USER_ACTIONS = [
  'suspend',
  'reactivate',
  'unlock',
  'mfa-reset',
  'force-password-change',
  'resend-verification',
] as const;
export type UserAction = (typeof USER_ACTIONS)[number];
