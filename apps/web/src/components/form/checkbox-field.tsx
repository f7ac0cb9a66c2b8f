import type { InputHTMLAttributes, ReactNode } from 'react';
import { controlProps, FieldError, FieldHint } from './field.tsx';

export type CheckboxFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> & {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  fieldClassName?: string;
  /** More lines under the error, inside the field (an error of the form tied to this box). */
  children?: ReactNode;
};

/** A checkbox with its label after it (Bootstrap Italia `form-check`), its hint and its error. */
export function CheckboxField({
  id,
  label,
  hint,
  error,
  fieldClassName = 'form-check mb-4',
  value = 'true',
  children,
  ...props
}: CheckboxFieldProps) {
  return (
    <div className={fieldClassName}>
      <input
        {...props}
        {...controlProps(id, hint, error)}
        type="checkbox"
        value={value}
        className="form-check-input"
      />
      <label htmlFor={id} className="form-check-label">
        {label}
      </label>
      <FieldHint id={id} hint={hint} />
      <FieldError id={id} error={error} name={props.name} />
      {children}
    </div>
  );
}
