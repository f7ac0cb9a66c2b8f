import { Input, type InputProps } from 'design-react-kit';
import { controlProps, FieldError, FieldHint } from './field.tsx';

export type TextFieldProps = Omit<InputProps, 'id' | 'valid' | 'infoText'> & {
  id: string;
  hint?: string | undefined;
  error?: string | undefined;
  /** Announces the error as an alert, read again when the key changes (see `FieldError`). */
  errorAlertKey?: number | undefined;
};

/**
 * A text input with the kit's floating label (design-react-kit `Input`), its hint and its error tied to
 * it. The kit's own `infoText` is not used: it replaces the control's `aria-describedby` with its own.
 */
export function TextField({ id, hint, error, errorAlertKey, ...props }: TextFieldProps) {
  const aria = controlProps(id, hint, error);
  // design-react-kit raises the label only for a value, a placeholder or the focus: a prefilled
  // defaultValue (the phone on "Completa la registrazione") was drawn over by its label.
  const prefilled =
    props.placeholder === undefined &&
    props.defaultValue !== undefined &&
    props.defaultValue !== null &&
    String(props.defaultValue) !== '';
  return (
    <>
      <Input
        {...props}
        {...(prefilled ? { placeholder: ' ' } : {})}
        {...aria}
        {...(error ? { valid: false } : {})}
      />
      {(hint || error) && (
        // The kit's input group ends with a bottom margin: hint and error go up under the line.
        <div className="mt-n3 mb-4">
          <FieldHint id={id} hint={hint} />
          <FieldError
            id={id}
            error={error}
            alertKey={errorAlertKey}
            name={typeof props.name === 'string' ? props.name : undefined}
            className="text-danger small mb-0"
          />
        </div>
      )}
    </>
  );
}
