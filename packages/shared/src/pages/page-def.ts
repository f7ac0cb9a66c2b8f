// What a page of the route table is, and the helpers its entries are written with.
import type { AccessRule } from '../auth/roles.ts';
import type { GuardName } from './guards.ts';

export type Layout = 'default' | 'authenticated';

export interface PageDef<I extends string = string> {
  /** Stable id, used by the API (`/api/portal/pages/:pageId`) and the tests. */
  id: I;
  /** React Router pattern; params name the entity. */
  path: string;
  layout: Layout;
  title: string;
  /** One sentence on what the page is for (meta description and page frame). */
  description: string;
  guards: readonly GuardName[];
  access?: AccessRule;
  /** Breadcrumb parent page id. */
  parent?: string;
  /** Label in the portal side navigation; pages with params are not listed. */
  navLabel?: string;
}

export const STAFF: AccessRule = { roles: ['super-admin', 'sylla', 'cromos'], permissions: [] };
export const DETECTOR: AccessRule = { roles: ['super-admin', 'detector'], permissions: [] };
export const USERS: AccessRule = { roles: ['super-admin', 'cromos'], permissions: ['user.index'] };
export const PORTAL_GUARDS = [
  'auth',
  'update-password',
  'has-verified-all-contacts',
  'sign-principal-document',
] as const satisfies readonly GuardName[];
export const RESTRICTED = [
  ...PORTAL_GUARDS,
  'has-role-or-permission',
] as const satisfies readonly GuardName[];

export function portal<const I extends string>(
  id: I,
  path: string,
  title: string,
  description: string,
  access: AccessRule,
  extra: Partial<Omit<PageDef, 'id'>> = {},
): PageDef<I> {
  return {
    id,
    path,
    layout: 'authenticated',
    title,
    description,
    guards: RESTRICTED,
    access,
    parent: 'portal.home',
    ...extra,
  };
}

export function pub<const I extends string>(
  id: I,
  path: string,
  title: string,
  description: string,
  extra: Partial<Omit<PageDef, 'id'>> = {},
): PageDef<I> {
  return { id, path, layout: 'default', title, description, guards: [], ...extra };
}
