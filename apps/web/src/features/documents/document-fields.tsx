import { DOCUMENT_CATEGORIES, DOCUMENT_CATEGORY_LABELS } from '@portale/shared/public';
import type { StaffDocument } from '@portale/shared/documents';
import type { FieldErrors } from '../../lib/form-data.ts';

function describedBy(
  id: string,
  errors: FieldErrors,
  name: string,
  hint?: boolean,
): Record<string, string | boolean> {
  const ids = [hint ? `${id}-hint` : null, errors[name] ? `${id}-error` : null].filter(Boolean).join(' ');
  return { ...(ids ? { 'aria-describedby': ids } : {}), ...(errors[name] ? { 'aria-invalid': true } : {}) };
}

function ErrorText({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={`${id}-error`} className="text-danger small mt-1 mb-0">
      {message}
    </p>
  ) : null;
}

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
      <div className="mb-3">
        <label className="form-label fw-semibold" htmlFor={id('title')}>
          Titolo
        </label>
        <input
          id={id('title')}
          name="title"
          type="text"
          className="form-control"
          defaultValue={doc?.title ?? ''}
          {...describedBy(id('title'), errors, 'title')}
        />
        <ErrorText id={id('title')} message={errors.title} />
      </div>
      <div className="mb-3 select-wrapper">
        <label className="form-label fw-semibold" htmlFor={id('category')}>
          Categoria
        </label>
        <select
          id={id('category')}
          name="category"
          className="form-select"
          defaultValue={doc?.category ?? ''}
          {...describedBy(id('category'), errors, 'category')}
        >
          <option value="">Scegli una categoria</option>
          {DOCUMENT_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {DOCUMENT_CATEGORY_LABELS[c]}
            </option>
          ))}
        </select>
        <ErrorText id={id('category')} message={errors.category} />
      </div>
      <div className="mb-3">
        <label className="form-label fw-semibold" htmlFor={id('description')}>
          Descrizione
        </label>
        <textarea
          id={id('description')}
          name="description"
          rows={3}
          className="form-control"
          defaultValue={doc?.description ?? ''}
          {...describedBy(id('description'), errors, 'description')}
        />
        <ErrorText id={id('description')} message={errors.description} />
      </div>
    </>
  );
}

/** The PDF file input, with its limits said up front. */
export function PdfInput({ prefix, label, errors }: { prefix: string; label: string; errors: FieldErrors }) {
  const id = `${prefix}-file`;
  return (
    <div className="mb-3">
      <label className="form-label fw-semibold d-block" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        name="file"
        type="file"
        accept=".pdf,application/pdf"
        className="form-control"
        {...describedBy(id, errors, 'file', true)}
      />
      <p id={`${id}-hint`} className="small text-muted mb-0">
        Solo file PDF, al massimo 20 MB.
      </p>
      <ErrorText id={id} message={errors.file} />
    </div>
  );
}
