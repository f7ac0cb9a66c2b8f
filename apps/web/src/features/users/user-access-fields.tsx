import {
  PERMISSION_LABELS,
  PERMISSIONS,
  ROLE_LABELS,
  ROLES,
  type PermissionSubject,
} from '@portale/shared/auth';
import { coversGrants } from '@portale/shared/users';

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
  const errorId = `${props.idPrefix}-${props.name}-error`;
  return (
    <fieldset className="mb-4" {...(props.error ? { 'aria-describedby': errorId } : {})}>
      <legend className="h6 fw-semibold">{props.legend}</legend>
      {props.options.map((option) => {
        const id = `${props.idPrefix}-${props.name}-${option.value.replace(/\W/g, '-')}`;
        return (
          <div className="form-check" key={option.value}>
            <input
              id={id}
              type="checkbox"
              className="form-check-input"
              name={props.name}
              value={option.value}
              defaultChecked={props.checked.includes(option.value)}
              disabled={!option.allowed}
              {...(props.error ? { 'aria-invalid': true } : {})}
            />
            <label className="form-check-label" htmlFor={id}>
              {option.label}
              {!option.allowed && <span className="small text-muted"> (non puoi assegnarlo)</span>}
            </label>
          </div>
        );
      })}
      {props.error && (
        <p id={errorId} className="text-danger small mt-1 mb-0">
          {props.error}
        </p>
      )}
    </fieldset>
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
