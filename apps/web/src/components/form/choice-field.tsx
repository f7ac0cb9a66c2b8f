import type { ReactNode } from 'react';
import { describedBy, FieldError, FieldHint } from './field.tsx';

/** A choice; `disabled` greys out this one alone (a role the user may not give). */
export type ChoiceOption = { value: string; label: ReactNode; disabled?: boolean };

export interface ChoiceFieldProps {
  /** The group's id: its hint is `<id>-hint`, its error `<id>-error`. */
  id: string;
  name: string;
  /** Radios (one choice) or checkboxes (several). */
  type?: 'radio' | 'checkbox';
  legend: ReactNode;
  options: readonly ChoiceOption[];
  /** The id of an option's control; `<id>-<value>` unless given. */
  optionId?: (value: string, index: number) => string;
  /** The values checked at first. */
  defaultValue?: string | readonly string[] | undefined;
  hint?: ReactNode;
  /** The hint under the legend (before the choices) rather than after them. */
  hintFirst?: boolean;
  hintClassName?: string;
  error?: string | undefined;
  disabled?: boolean;
  className?: string;
  legendClassName?: string;
  testId?: string;
  /** Lines between the legend and the choices (what an empty list means). */
  children?: ReactNode;
}

/**
 * A group of radios or checkboxes (Bootstrap Italia `form-check`s in a `fieldset`): the legend names
 * the group, the fieldset is described by the hint and the error, each choice is `aria-invalid` with
 * an error.
 */
export function ChoiceField({
  id,
  name,
  type = 'radio',
  legend,
  options,
  optionId = (value) => `${id}-${value}`,
  defaultValue,
  hint,
  hintFirst = false,
  hintClassName,
  error,
  disabled,
  className = 'mb-3',
  legendClassName = 'form-label fw-semibold fs-6',
  testId,
  children,
}: ChoiceFieldProps) {
  const checked =
    defaultValue === undefined ? [] : typeof defaultValue === 'string' ? [defaultValue] : defaultValue;
  const describes = describedBy(id, hint, error);
  const hintLine = (
    <FieldHint id={id} hint={hint} {...(hintClassName === undefined ? {} : { className: hintClassName })} />
  );
  return (
    <fieldset
      className={className}
      {...(describes ? { 'aria-describedby': describes } : {})}
      {...(testId ? { 'data-testid': testId } : {})}
    >
      <legend className={legendClassName}>{legend}</legend>
      {hintFirst && hintLine}
      {children}
      {options.map((option, index) => {
        const optionKey = optionId(option.value, index);
        return (
          <div className="form-check" key={option.value}>
            <input
              className="form-check-input"
              type={type}
              id={optionKey}
              name={name}
              value={option.value}
              {...(defaultValue === undefined ? {} : { defaultChecked: checked.includes(option.value) })}
              {...(disabled === undefined && option.disabled === undefined
                ? {}
                : { disabled: Boolean(disabled || option.disabled) })}
              {...(error ? { 'aria-invalid': true as const } : {})}
            />
            <label className="form-check-label" htmlFor={optionKey}>
              {option.label}
            </label>
          </div>
        );
      })}
      {!hintFirst && hintLine}
      <FieldError id={id} error={error} />
    </fieldset>
  );
}
