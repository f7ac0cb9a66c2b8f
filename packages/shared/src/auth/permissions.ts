import type { Permission as DirectPermission, Role } from './roles.ts';

/**
 * Permissions on resources, shaped `action:entity:own|any` (architecture §4, epic-stack). A role or a
 * direct permission grants a list of them; `can()` is the one question both sides ask.
 */
export const ENTITIES = [
  'institute',
  'school-site',
  'teacher',
  'user',
  'audit',
  'dashboard',
  'adhesion',
  'review',
  'booking',
  'document',
  'detector',
  'visit',
  'survey',
  'access-code',
  'response',
  'substitution',
  'action-model',
  'action',
  'template',
  'visit-photo',
] as const;
export type Entity = (typeof ENTITIES)[number];
/** `sign`: the principal's formal signature; `decide`: a reviewer's decision on a review item. */
export const ACTIONS = ['read', 'update', 'export', 'create', 'manage', 'sign', 'decide'] as const;
export type Action = (typeof ACTIONS)[number];
export type Grant = `${Action}:${Entity}:${'own' | 'any'}`;
/** What a check names: the action and the entity; ownership is decided by `can`. */
export type PermissionCheck = `${Action}:${Entity}`;

const REGISTRY_STAFF: readonly Grant[] = [
  'read:institute:any',
  'update:institute:any',
  'export:institute:any',
  // Handovers (decision 047): a new principal or first contact replaces the holder by an invitation.
  'manage:institute:any',
  'read:school-site:any',
  'update:school-site:any',
  'export:school-site:any',
  'read:teacher:any',
  'export:teacher:any',
  'read:audit:any',
  'read:dashboard:any',
  // Onboarding (issue 9): the adhesions panel (read, export, reminders and withdrawals) and the reviews.
  'read:adhesion:any',
  'export:adhesion:any',
  'manage:adhesion:any',
  'read:review:any',
  'decide:review:any',
  // Public participation (issue 12): booking slots and their bookings, the published documents.
  'read:booking:any',
  'create:booking:any',
  'update:booking:any',
  'export:booking:any',
  'read:document:any',
  'create:document:any',
  'update:document:any',
  // Field work (issue 10): the detectors, their provinces, and which plessi each one holds.
  // The photos of visit reports (issue 39, decision 055): staff who read detectors see them.
  'read:visit-photo:any',
  'read:detector:any',
  'export:detector:any',
  'manage:detector:any',
  'manage:school-site:any',
  // Surveys (issue 12): staff build them, open and close them, and may make access codes for any plesso.
  'read:survey:any',
  'create:survey:any',
  'update:survey:any',
  'export:survey:any',
  'read:access-code:any',
  'create:access-code:any',
  'update:access-code:any',
  // Actions (issue 10): staff assign actions from the models, follow them and verify or send back the evidence.
  'read:action-model:any',
  'read:action:any',
  'create:action:any',
  'export:action:any',
  'decide:action:any',
];
/** Substitutions are decided by Sylla staff and the super-admin (seed-spec §6 page rule). */
const SUBSTITUTION_DECIDERS: readonly Grant[] = [
  'read:substitution:any',
  'export:substitution:any',
  'decide:substitution:any',
];
/**
 * Grants a user manager may give without holding them: a staff role's own duty that is not a power over
 * people or the platform (cromos creates Sylla staff, who decide substitutions). `:own` grants are
 * covered too (`coversGrants`).
 */
export const DELEGABLE_BY_USER_MANAGERS: ReadonlySet<Grant> = new Set(SUBSTITUTION_DECIDERS);
/** The super-admin alone manages action models and templates (product §2). */
const PLATFORM_ADMIN: readonly Grant[] = [
  'create:action-model:any',
  'update:action-model:any',
  'read:template:any',
  'update:template:any',
];
/** Whoever an action is assigned to (the institute's people, a plesso's teachers) reads it and carries it out. */
const ACTION_TARGET: readonly Grant[] = ['read:action:own', 'update:action:own'];
/** Teachers and educators answer the open survey once and make access codes for their plesso's classes. */
const PARTICIPANT: readonly Grant[] = [
  'create:response:own',
  'read:access-code:own',
  'create:access-code:own',
  'update:access-code:own',
  ...ACTION_TARGET,
];
/** The institute's people ask for a teacher's substitution and follow their requests. */
const SUBSTITUTION_REQUESTER: readonly Grant[] = ['read:substitution:own', 'create:substitution:own'];
/** A plesso's visits: its detector (`:own`, the owners of a plesso are [its detector]) and the super-admin (seed-spec §6). */
const VISITS_ANY: readonly Grant[] = ['read:visit:any', 'create:visit:any', 'update:visit:any'];
const USER_ADMIN: readonly Grant[] = [
  'read:user:any',
  'export:user:any',
  'create:user:any',
  'update:user:any',
  'manage:user:any',
];

/** Which role grants what. Role names appear in no `if` outside this table (architecture §2.7). */
export const ROLE_GRANTS: Record<Role, readonly Grant[]> = {
  'super-admin': [
    ...REGISTRY_STAFF,
    ...USER_ADMIN,
    ...VISITS_ANY,
    ...SUBSTITUTION_DECIDERS,
    ...PLATFORM_ADMIN,
  ],
  sylla: [...REGISTRY_STAFF, ...SUBSTITUTION_DECIDERS],
  cromos: [...REGISTRY_STAFF, ...USER_ADMIN],
  // `update:detector:own`: the detector's own device reports its queue of unsent reports (issue 39).
  detector: [
    'read:school-site:own',
    'read:visit:own',
    'create:visit:own',
    'update:visit:own',
    'update:detector:own',
    // The photos of their own visit reports (issue 39, decision 055): upload and see them.
    'create:visit-photo:own',
    'read:visit-photo:own',
  ],
  // The principal reads, prepares and signs the institute's adhesion and may withdraw it; the first contact prepares it.
  // The principal also names a new first contact (`manage:institute:own`, decision 047).
  'school.principal': [
    'read:institute:own',
    'manage:institute:own',
    'read:adhesion:own',
    'update:adhesion:own',
    'sign:adhesion:own',
    'manage:adhesion:own',
    ...SUBSTITUTION_REQUESTER,
    ...ACTION_TARGET,
  ],
  'institute.first-contact': [
    'read:institute:own',
    'read:adhesion:own',
    'update:adhesion:own',
    ...SUBSTITUTION_REQUESTER,
    ...ACTION_TARGET,
  ],
  teacher: PARTICIPANT,
  educator: PARTICIPANT,
};

/** Direct permissions of seed-spec §6: `user.index` reads the staff lists and the audit, changes nothing. */
export const DIRECT_PERMISSION_GRANTS: Record<DirectPermission, readonly Grant[]> = {
  'user.index': [
    'read:user:any',
    'export:user:any',
    'read:audit:any',
    'read:adhesion:any',
    'export:adhesion:any',
    'read:review:any',
  ],
};

/** The subject of a check: the session user's id, roles and direct permissions. */
export interface PermissionSubject {
  id: number;
  roles: readonly string[];
  permissions: readonly string[];
}

/** A record checked for `:own` grants: the users who own it (principal, first contact, detector…). */
export interface OwnedResource {
  ownerUserIds: readonly (number | null | undefined)[];
}

/** Every grant of a subject, from roles and direct permissions. */
export function grantsOf(subject: Pick<PermissionSubject, 'roles' | 'permissions'>): Set<Grant> {
  const grants = new Set<Grant>();
  for (const role of subject.roles) for (const g of ROLE_GRANTS[role as Role] ?? []) grants.add(g);
  for (const p of subject.permissions)
    for (const g of DIRECT_PERMISSION_GRANTS[p as DirectPermission] ?? []) grants.add(g);
  return grants;
}

/**
 * May `subject` do `check` (e.g. `update:institute`) on `resource`? `:any` allows every record;
 * `:own` only a resource whose owners include the subject (no resource: no).
 */
export function can(
  subject: PermissionSubject | null | undefined,
  check: PermissionCheck,
  resource?: OwnedResource,
): boolean {
  if (!subject) return false;
  const grants = grantsOf(subject);
  if (grants.has(`${check}:any`)) return true;
  return Boolean(resource && grants.has(`${check}:own`) && resource.ownerUserIds.includes(subject.id));
}

/** May `subject` do `check` on some record (own or any)? For showing an entry point, never to authorise. */
export function canSome(subject: PermissionSubject | null | undefined, check: PermissionCheck): boolean {
  if (!subject) return false;
  const grants = grantsOf(subject);
  return grants.has(`${check}:any`) || grants.has(`${check}:own`);
}
