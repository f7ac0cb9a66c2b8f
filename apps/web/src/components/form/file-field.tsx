import type { InputHTMLAttributes, ReactNode } from 'react';
import { Field, fieldLayout, type FieldLayout } from './field.tsx';

export type FileFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> & {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
} & FieldLayout;

/**
 * A labelled file input with its hint (formats, size) and error. Native, with the kit's `form-control`
 * class: the kit's `Upload` overwrites the control's `aria-describedby` and draws an icon sprite that
 * no public page should load (decision 045).
 */
export function FileField({
  id,
  label,
  hint,
  error,
  fieldClassName,
  labelClassName,
  hintClassName,
  hintFirst,
  className = 'form-control',
  ...props
}: FileFieldProps) {
  return (
    <Field
      id={id}
      label={label}
      hint={hint}
      error={error}
      name={props.name}
      {...fieldLayout({ fieldClassName, labelClassName, hintClassName, hintFirst })}
    >
      {(control) => <input {...props} {...control} type="file" className={className} />}
    </Field>
  );
}
