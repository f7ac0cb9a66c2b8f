/** Role ids of seed-spec §6 plus the participant roles of product §2. */
export const ROLES = [
  'super-admin',
  'sylla',
  'cromos',
  'detector',
  'school.principal',
  'institute.first-contact',
  'teacher',
  'educator',
] as const;
export type Role = (typeof ROLES)[number];

/** The programme's own people (seed-spec §6), as opposed to the schools' participants. */
export const STAFF_ROLES = ['super-admin', 'sylla', 'cromos', 'detector'] as const satisfies readonly Role[];

/** Permission ids of seed-spec §6. */
export const PERMISSIONS = ['user.index'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Italian labels shown to users for each role. */
export const ROLE_LABELS: Record<Role, string> = {
  'super-admin': 'Amministratore della piattaforma',
  sylla: 'Staff Sylla',
  cromos: 'Staff Cromos',
  detector: 'Rilevatore',
  'school.principal': 'Dirigente scolastico',
  'institute.first-contact': "Referente d'istituto",
  teacher: 'Insegnante',
  educator: 'Educatore',
};

export const PERMISSION_LABELS: Record<Permission, string> = {
  'user.index': 'Consultazione degli elenchi del personale e degli utenti',
};

/** A rule satisfied by any of the listed roles or permissions (seed guard has-role-or-permission). */
export interface AccessRule {
  roles: readonly Role[];
  permissions: readonly Permission[];
}
