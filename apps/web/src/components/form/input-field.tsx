import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { Field, fieldLayout, type FieldLayout } from './field.tsx';

export type InputFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  ref?: Ref<HTMLInputElement>;
} & FieldLayout;

/**
 * A labelled native input above its hint and error (label on top, not floating): for dates, times,
 * numbers and the inputs of dense forms where the kit's floating label would cover the browser's own
 * placeholder (`dd/mm/yyyy`, the number spinner).
 */
export function InputField({
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
}: InputFieldProps) {
  return (
    <Field
      id={id}
      label={label}
      hint={hint}
      error={error}
      name={props.name}
      {...fieldLayout({ fieldClassName, labelClassName, hintClassName, hintFirst })}
    >
      {(control) => <input {...props} {...control} className={className} />}
    </Field>
  );
}

/** A date and time (`datetime-local`, the time of Rome as the contracts read it), or a date alone. */
export function DateTimeField({
  type = 'datetime-local',
  ...props
}: InputFieldProps & { type?: 'datetime-local' | 'date' | 'time' }) {
  return <InputField type={type} {...props} />;
}
