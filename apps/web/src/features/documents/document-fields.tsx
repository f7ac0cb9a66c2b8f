import { DOCUMENT_CATEGORIES, DOCUMENT_CATEGORY_LABELS } from '@portale/shared/public';
import type { StaffDocument } from '@portale/shared/documents';
import { FileField } from '../../components/form/file-field.tsx';
import { InputField } from '../../components/form/input-field.tsx';
import { SelectField } from '../../components/form/select-field.tsx';
import { TextAreaField } from '../../components/form/text-area-field.tsx';
import type { FieldErrors } from '../../lib/form-data.ts';

/** Title, category and description of a document. */
export function DocumentFields({
  prefix,
  doc,
  errors,
}: {
  prefix: string;
  doc?: StaffDocument;
  errors: FieldErrors;
}) {
  const id = (name: string) => `${prefix}-${name}`;
  return (
    <>
      <InputField
        id={id('title')}
        name="title"
        type="text"
        label="Titolo"
        defaultValue={doc?.title ?? ''}
        error={errors.title}
      />
      <SelectField
        id={id('category')}
        name="category"
        label="Categoria"
        fieldClassName="mb-3 select-wrapper"
        defaultValue={doc?.category ?? ''}
        error={errors.category}
      >
        <option value="">Scegli una categoria</option>
        {DOCUMENT_CATEGORIES.map((c) => (
          <option key={c} value={c}>
            {DOCUMENT_CATEGORY_LABELS[c]}
          </option>
        ))}
      </SelectField>
      <TextAreaField
        id={id('description')}
        name="description"
        label="Descrizione"
        rows={3}
        defaultValue={doc?.description ?? ''}
        error={errors.description}
      />
    </>
  );
}

/** The PDF file input, with its limits said up front. */
export function PdfInput({ prefix, label, errors }: { prefix: string; label: string; errors: FieldErrors }) {
  return (
    <FileField
      id={`${prefix}-file`}
      name="file"
      label={label}
      labelClassName="form-label fw-semibold d-block"
      accept=".pdf,application/pdf"
      hint="Solo file PDF, al massimo 20 MB."
      error={errors.file}
    />
  );
}
