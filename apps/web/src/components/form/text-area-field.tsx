import type { ReactNode, Ref, TextareaHTMLAttributes } from 'react';
import { Field, fieldLayout, type FieldLayout } from './field.tsx';

export type TextAreaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  ref?: Ref<HTMLTextAreaElement>;
} & FieldLayout;

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
  labelClassName,
  hintClassName,
  hintFirst,
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
      {...fieldLayout({ fieldClassName, labelClassName, hintClassName, hintFirst })}
    >
      {(control) => <textarea rows={rows} {...props} {...control} className={className} />}
    </Field>
  );
}
