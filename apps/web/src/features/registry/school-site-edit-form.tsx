import { Form } from 'react-router';
import type { SchoolSiteDetail } from '@portale/shared/registry';
import { CheckboxField } from '../../components/form/checkbox-field.tsx';
import { TextField } from '../../components/form/text-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { INITIAL_FIELD } from './registry-edit.ts';

/** The plesso fields staff may correct (the contract's SchoolSiteUpdateSchema). */
export const SITE_TEXT_FIELDS = ['name', 'address', 'postalCode'] as const;
export const SITE_CHECKBOXES = ['participating'] as const;

/** Correction of a plesso: name, address, CAP and whether it takes part in the programme. */
export function SchoolSiteEditForm({
  site,
  errors,
}: {
  site: SchoolSiteDetail;
  errors: Record<string, string>;
}) {
  const initial = {
    name: site.name,
    address: site.address,
    postalCode: site.postalCode,
    participating: site.participating,
  };
  return (
    <Form
      method="post"
      noValidate
      preventScrollReset
      aria-labelledby="modifica-title"
      data-testid="site-edit"
    >
      <input type="hidden" name={INITIAL_FIELD} value={JSON.stringify(initial)} />
      <div className="row">
        <div className="col-12">
          <TextField
            id="site-name"
            name="name"
            label="Denominazione"
            type="text"
            placeholder="Nome del plesso"
            defaultValue={site.name}
            error={errors.name}
          />
        </div>
        <div className="col-12 col-md-8">
          <TextField
            id="site-address"
            name="address"
            label="Indirizzo"
            type="text"
            placeholder="Per esempio Via Roma 1"
            defaultValue={site.address ?? ''}
            error={errors.address}
          />
        </div>
        <div className="col-12 col-md-4">
          <TextField
            id="site-postalCode"
            name="postalCode"
            label="CAP"
            type="text"
            inputMode="numeric"
            placeholder="Per esempio 00100"
            defaultValue={site.postalCode ?? ''}
            error={errors.postalCode}
          />
        </div>
      </div>
      <CheckboxField
        id="site-participating"
        name="participating"
        label="Il plesso partecipa al programma"
        defaultChecked={site.participating}
        error={errors.participating}
      />
      <SubmitButton idle="Salva le modifiche" busy="Salvataggio in corso…" />
    </Form>
  );
}
