import { Alert, Input, type InputProps } from 'design-react-kit';

type FieldProps = Omit<InputProps, 'id' | 'valid'> & {
  id: string;
  error?: string | undefined;
  /**
   * Announces the error as an alert, read again when the key changes (a one-field form whose error the
   * user would not otherwise hear, as a wrong SMS code: issue 34).
   */
  errorAlertKey?: number | undefined;
};

/** A labelled input whose error is tied to it (aria-invalid + aria-describedby) and shown right below. */
export function FormField({ id, error, errorAlertKey, ...props }: FieldProps) {
  const errorId = `${id}-error`;
  const invalid = error ? { valid: false, 'aria-invalid': true, 'aria-describedby': errorId } : {};
  // design-react-kit raises the label only for a value, a placeholder or the focus: a prefilled
  // defaultValue (the phone on "Completa la registrazione") was drawn over by its label.
  const prefilled =
    props.placeholder === undefined &&
    props.defaultValue !== undefined &&
    props.defaultValue !== null &&
    String(props.defaultValue) !== '';
  return (
    <>
      <Input id={id} {...props} {...(prefilled ? { placeholder: ' ' } : {})} {...invalid} />
      {error && (
        <p
          id={errorId}
          key={errorAlertKey}
          className="text-danger small mt-n3 mb-4"
          {...(errorAlertKey === undefined ? {} : { role: 'alert' })}
        >
          {error}
        </p>
      )}
    </>
  );
}

/** A checkbox with its label and an error tied to it. */
export function CheckboxField({
  id,
  name,
  label,
  error,
  defaultChecked,
}: {
  id: string;
  name: string;
  label: React.ReactNode;
  error?: string | undefined;
  defaultChecked?: boolean;
}) {
  const errorId = `${id}-error`;
  return (
    <div className="form-check mb-4">
      <input
        id={id}
        name={name}
        type="checkbox"
        value="true"
        className="form-check-input"
        defaultChecked={defaultChecked}
        {...(error ? { 'aria-invalid': true, 'aria-describedby': errorId } : {})}
      />
      <label htmlFor={id} className="form-check-label">
        {label}
      </label>
      {error && (
        <p id={errorId} className="text-danger small mt-1">
          {error}
        </p>
      )}
    </div>
  );
}

/** A form-level message: errors are announced (role="alert"), successes politely (role="status"). */
export function FormMessage({
  message,
  tone = 'danger',
}: {
  message?: string | undefined;
  tone?: 'danger' | 'success' | 'info';
}) {
  if (!message) return null;
  if (tone === 'danger') {
    return (
      <Alert color="danger" role="alert">
        {message}
      </Alert>
    );
  }
  // design-react-kit's Alert always says role="alert": a success is only a polite status.
  return (
    <div className={`alert alert-${tone}`} role="status">
      {message}
    </div>
  );
}
