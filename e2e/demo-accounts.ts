import type { Permission, Role, SessionUser } from '@portale/shared/auth';

/** The password of every demo account (issue 2, scope 3). */
export const DEMO_PASSWORD = 'Portale.Demo.2026';

type AccessUser = Pick<
  SessionUser,
  'scope' | 'mustChangePassword' | 'emailVerified' | 'phoneVerified' | 'mustSignPrincipalDocument'
>;

export interface DemoAccount {
  email: string;
  firstName: string;
  roles: Role[];
  permissions: Permission[];
  /** What the guards read, written down from issue 2 (not fetched from the API under test). */
  user: AccessUser;
}

function account(
  email: string,
  firstName: string,
  roles: Role[],
  permissions: Permission[] = [],
  flags: Partial<Omit<AccessUser, 'scope'>> = {},
): DemoAccount {
  return {
    email,
    firstName,
    roles,
    permissions,
    user: {
      scope: [...roles, ...permissions],
      emailVerified: true,
      phoneVerified: true,
      mustChangePassword: false,
      mustSignPrincipalDocument: false,
      ...flags,
    },
  };
}

/** The demo accounts of issue 2 with their roles, permissions and pending conditions. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  account('superadmin@demo.test', 'Silvia', ['super-admin']),
  account('sylla@demo.test', 'Stefano', ['sylla']),
  account('cromos@demo.test', 'Chiara', ['cromos']),
  account('rilevatore@demo.test', 'Roberto', ['detector']),
  account('dirigente@demo.test', 'Daniela', ['school.principal']),
  account('referente@demo.test', 'Renato', ['institute.first-contact']),
  account('insegnante@demo.test', 'Irene', ['teacher']),
  account('utenti@demo.test', 'Ugo', [], ['user.index']),
  account('cambio-password@demo.test', 'Carla', ['teacher'], [], { mustChangePassword: true }),
  account('da-verificare@demo.test', 'Davide', ['teacher'], [], { phoneVerified: false }),
  account('dirigente-senza-firma@demo.test', 'Franca', ['school.principal'], [], {
    mustSignPrincipalDocument: true,
  }),
];

export function demoAccount(email: string): DemoAccount {
  const found = DEMO_ACCOUNTS.find((a) => a.email === email);
  if (!found) throw new Error(`Unknown demo account ${email}`);
  return found;
}
