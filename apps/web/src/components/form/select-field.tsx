import type { ReactNode, SelectHTMLAttributes } from 'react';
import { Field, fieldLayout, type FieldLayout } from './field.tsx';

export type SelectOption = { value: string; label: string };

export type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'children'> & {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  /** The options, or the `<option>`s themselves (groups, a first empty choice). */
  options?: readonly SelectOption[];
  children?: ReactNode;
  /** A box around the select alone (Bootstrap Italia's `select-wrapper`, which would float a label inside it). */
  wrapperClassName?: string;
} & FieldLayout;

/**
 * A labelled select with its hint and error. A native `<select class="form-select">` rather than the
 * kit's `Select`: the kit's requires a controlled `onChange`, draws its own label with no place for a
 * hint or an error between label and control (decision 045).
 */
export function SelectField({
  id,
  label,
  hint,
  error,
  options,
  children,
  fieldClassName,
  labelClassName,
  hintClassName,
  hintFirst,
  className = 'form-select',
  wrapperClassName,
  ...props
}: SelectFieldProps) {
  return (
    <Field
      id={id}
      label={label}
      hint={hint}
      error={error}
      name={props.name}
      {...fieldLayout({ fieldClassName, labelClassName, hintClassName, hintFirst })}
    >
      {(control) => {
        const select = (
          <select {...props} {...control} className={className}>
            {options?.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
            {children}
          </select>
        );
        return wrapperClassName === undefined ? select : <div className={wrapperClassName}>{select}</div>;
      }}
    </Field>
  );
}

export type FilterSelectFieldProps = Omit<
  SelectFieldProps,
  'fieldClassName' | 'labelClassName' | 'className' | 'wrapperClassName'
> & {
  /** The first, empty choice: no filter ("Tutte le regioni"). */
  anyLabel?: string | undefined;
};

/**
 * A filter's select as Bootstrap Italia draws it in a filter bar (lists, map, progress, results): the
 * label floats over a class-less select inside `select-wrapper`; `anyLabel` comes first.
 */
export function FilterSelectField({ anyLabel, options, children, ...props }: FilterSelectFieldProps) {
  return (
    <SelectField {...props} fieldClassName="select-wrapper" labelClassName="" className="">
      {anyLabel !== undefined && <option value="">{anyLabel}</option>}
      {options?.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
      {children}
    </SelectField>
  );
}
