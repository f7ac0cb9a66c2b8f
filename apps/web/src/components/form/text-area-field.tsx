import type { ReactNode, TextareaHTMLAttributes } from 'react';
import { Field } from './field.tsx';

export type TextAreaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  fieldClassName?: string;
};

/**
 * A labelled textarea with its hint and error. Native, with the kit's `form-control` class: the kit's
 * `TextArea` overwrites the control's `aria-describedby` with an id of its own (decision 045).
 */
export function TextAreaField({
  id,
  label,
  hint,
  error,
  fieldClassName,
  className = 'form-control',
  rows = 4,
  ...props
}: TextAreaFieldProps) {
  return (
    <Field
      id={id}
      label={label}
      hint={hint}
      error={error}
      name={props.name}
      {...(fieldClassName === undefined ? {} : { className: fieldClassName })}
    >
      {(control) => <textarea rows={rows} {...props} {...control} className={className} />}
    </Field>
  );
}
