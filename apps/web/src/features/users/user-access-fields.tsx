import {
  PERMISSION_LABELS,
  PERMISSIONS,
  ROLE_LABELS,
  ROLES,
  type PermissionSubject,
} from '@portale/shared/auth';
import { coversGrants } from '@portale/shared/users';
import { ChoiceField } from '../../components/form/choice-field.tsx';

interface AccessFieldsProps {
  idPrefix: string;
  /** The signed-in staff member: roles or permissions they do not hold themselves cannot be given. */
  actor: PermissionSubject;
  roles: readonly string[];
  permissions: readonly string[];
  errors: Record<string, string>;
}

function fieldError(errors: Record<string, string>, name: string): string | undefined {
  return errors[name] ?? Object.entries(errors).find(([key]) => key.startsWith(`${name}.`))?.[1];
}

function Choices(props: {
  idPrefix: string;
  name: 'roles' | 'permissions';
  legend: string;
  options: readonly { value: string; label: string; allowed: boolean }[];
  checked: readonly string[];
  error: string | undefined;
}) {
  return (
    <ChoiceField
      id={`${props.idPrefix}-${props.name}`}
      name={props.name}
      type="checkbox"
      legend={props.legend}
      legendClassName="h6 fw-semibold"
      className="mb-4"
      options={props.options.map((option) => ({
        value: option.value,
        label: (
          <>
            {option.label}
            {!option.allowed && <span className="small text-muted"> (non puoi assegnarlo)</span>}
          </>
        ),
        disabled: !option.allowed,
      }))}
      optionId={(value) => `${props.idPrefix}-${props.name}-${value.replace(/\W/g, '-')}`}
      defaultValue={props.checked}
      error={props.error}
    />
  );
}

/** Roles and direct permissions as checkboxes (`roles`, `permissions` in the form data). */
export function AccessFields({ idPrefix, actor, roles, permissions, errors }: AccessFieldsProps) {
  return (
    <div className="row">
      <div className="col-12 col-md-6">
        <Choices
          idPrefix={idPrefix}
          name="roles"
          legend="Ruoli"
          options={ROLES.map((r) => ({
            value: r,
            label: ROLE_LABELS[r],
            allowed: coversGrants(actor, { roles: [r], permissions: [] }),
          }))}
          checked={roles}
          error={fieldError(errors, 'roles')}
        />
      </div>
      <div className="col-12 col-md-6">
        <Choices
          idPrefix={idPrefix}
          name="permissions"
          legend="Permessi diretti"
          options={PERMISSIONS.map((p) => ({
            value: p,
            label: PERMISSION_LABELS[p],
            allowed: coversGrants(actor, { roles: [], permissions: [p] }),
          }))}
          checked={permissions}
          error={fieldError(errors, 'permissions')}
        />
      </div>
    </div>
  );
}

/** The access a form sends: every ticked role and permission. */
export function accessOf(form: FormData): { roles: string[]; permissions: string[] } {
  return { roles: form.getAll('roles').map(String), permissions: form.getAll('permissions').map(String) };
}
