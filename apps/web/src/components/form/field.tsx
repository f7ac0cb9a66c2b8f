import type { ReactNode } from 'react';

/** What a field hands its control: the id its label points at, and the ids of its hint and error. */
export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

/** The ids a control is described by (hint, then error), or undefined when there is neither. */
export function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
}

/** The aria attributes of a control with this id, hint and error. */
export function controlProps(id: string, hint: unknown, error: unknown): ControlProps {
  const describes = describedBy(id, hint, error);
  return {
    id,
    ...(describes ? { 'aria-describedby': describes } : {}),
    ...(error ? { 'aria-invalid': true as const } : {}),
  };
}

/**
 * A field's error line, tied to its control by `${id}-error`; `name` adds `data-testid="error-<name>"`.
 * `alertKey` announces it as an alert, read again when the key changes (a one-field form whose error
 * the user would not otherwise hear, as a wrong SMS code: issue 34).
 */
export function FieldError({
  id,
  error,
  name,
  alertKey,
  className = 'text-danger small mt-1 mb-0',
}: {
  id: string;
  error?: string | undefined;
  name?: string | undefined;
  alertKey?: number | undefined;
  className?: string;
}) {
  if (!error) return null;
  return (
    <p
      id={`${id}-error`}
      key={alertKey}
      className={className}
      {...(name ? { 'data-testid': `error-${name}` } : {})}
      {...(alertKey === undefined ? {} : { role: 'alert' })}
    >
      {error}
    </p>
  );
}

/** A field's hint line, tied to its control by `${id}-hint`. */
export function FieldHint({
  id,
  hint,
  className = 'small text-muted mb-0',
}: {
  id: string;
  hint?: ReactNode;
  className?: string;
}) {
  if (!hint) return null;
  return (
    <p id={`${id}-hint`} className={className}>
      {hint}
    </p>
  );
}

export interface FieldProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  /** The field name, for the error's `data-testid="error-<name>"`. */
  name?: string | undefined;
  className?: string;
  labelClassName?: string;
  hintClassName?: string;
  /** The hint between the label and the control (what to write, read before writing it). */
  hintFirst?: boolean;
  /** The control, given its id and aria attributes (spread them on the input, select or textarea). */
  children: (control: ControlProps) => ReactNode;
}

/**
 * A label, a control, its hint and its error, with `aria-describedby` and `aria-invalid` wired: the
 * base of every field of the kit (and of a one-off control, through the render prop).
 */
export function Field({
  id,
  label,
  hint,
  error,
  name,
  className = 'mb-3',
  labelClassName = 'form-label fw-semibold',
  hintClassName,
  hintFirst = false,
  children,
}: FieldProps) {
  const hintLine = (
    <FieldHint id={id} hint={hint} {...(hintClassName === undefined ? {} : { className: hintClassName })} />
  );
  return (
    <div className={className}>
      <label className={labelClassName} htmlFor={id}>
        {label}
      </label>
      {hintFirst && hintLine}
      {children(controlProps(id, hint, error))}
      {!hintFirst && hintLine}
      <FieldError id={id} error={error} name={name} />
    </div>
  );
}

/** The layout classes a kit field passes on to its `Field` (the wrapper, the label, the hint). */
export interface FieldLayout {
  fieldClassName?: string;
  labelClassName?: string;
  hintClassName?: string;
  hintFirst?: boolean;
}

/** `Field`'s props for a layout, leaving out what is not given (so `Field`'s defaults apply). */
export function fieldLayout({ fieldClassName, labelClassName, hintClassName, hintFirst }: FieldLayout) {
  return {
    ...(fieldClassName === undefined ? {} : { className: fieldClassName }),
    ...(labelClassName === undefined ? {} : { labelClassName }),
    ...(hintClassName === undefined ? {} : { hintClassName }),
    ...(hintFirst === undefined ? {} : { hintFirst }),
  };
}
