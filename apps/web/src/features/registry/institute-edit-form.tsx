import { Form } from 'react-router';
import type { InstituteDetail } from '@portale/shared/registry';
import { TextField } from '../../components/form/text-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { INITIAL_FIELD } from './registry-edit.ts';

/** The institute fields staff may correct (the contract's InstituteUpdateSchema). */
export const INSTITUTE_EDIT_FIELDS = [
  'address',
  'postalCode',
  'email',
  'certifiedEmail',
  'phone',
  'website',
] as const;

// Each field has an example as placeholder: it also keeps the kit's label above a filled field.
const FIELDS: {
  name: (typeof INSTITUTE_EDIT_FIELDS)[number];
  label: string;
  type: 'text' | 'email' | 'tel' | 'url';
  example: string;
  inputMode?: 'numeric' | 'tel';
}[] = [
  { name: 'address', label: 'Indirizzo', type: 'text', example: 'Via Roma 1' },
  { name: 'postalCode', label: 'CAP', type: 'text', example: '00100', inputMode: 'numeric' },
  { name: 'email', label: 'E-mail', type: 'email', example: 'segreteria@scuola.edu.it' },
  { name: 'certifiedEmail', label: 'PEC', type: 'email', example: 'codice@pec.istruzione.it' },
  { name: 'phone', label: 'Telefono', type: 'tel', example: '06 1234567', inputMode: 'tel' },
  { name: 'website', label: 'Sito web', type: 'url', example: 'https://www.scuola.edu.it' },
];

/** Correction of an institute's contacts: only changed fields are sent; an empty field clears it. */
export function InstituteEditForm({
  institute,
  errors,
}: {
  institute: InstituteDetail;
  errors: Record<string, string>;
}) {
  const initial = Object.fromEntries(INSTITUTE_EDIT_FIELDS.map((f) => [f, institute[f]]));
  return (
    <Form
      method="post"
      noValidate
      preventScrollReset
      aria-labelledby="modifica-title"
      data-testid="institute-edit"
    >
      <input type="hidden" name={INITIAL_FIELD} value={JSON.stringify(initial)} />
      <div className="row">
        {FIELDS.map((field) => (
          <div className="col-12 col-md-6" key={field.name}>
            <TextField
              id={`institute-${field.name}`}
              name={field.name}
              label={field.label}
              type={field.type}
              autoComplete="off"
              placeholder={`Per esempio ${field.example}`}
              {...(field.inputMode ? { inputMode: field.inputMode } : {})}
              defaultValue={institute[field.name] ?? ''}
              error={errors[field.name]}
            />
          </div>
        ))}
      </div>
      <p className="small">
        Lascia vuoto un campo per cancellarne il valore. Ogni modifica è registrata nello storico.
      </p>
      <SubmitButton idle="Salva le modifiche" busy="Salvataggio in corso…" />
    </Form>
  );
}
