import {
  Form,
  Link,
  redirect,
  useActionData,
  useLoaderData,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import {
  DocumentCreateQuerySchema,
  exportDocuments,
  listDocuments,
  type StaffDocument,
} from '@portale/shared/documents';
import { getPage, href } from '@portale/shared/pages';
import { DOCUMENT_CATEGORIES, DOCUMENT_CATEGORY_LABELS } from '@portale/shared/public';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar, type SelectFilter } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { formatBytes, formatShortDateTime } from '../../lib/format.ts';
import { failureResult, issuesToErrors, text, type FormResult } from '../../lib/form-data.ts';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { DocumentFields, PdfInput } from './document-fields.tsx';
import { fileProblem, sendPdf } from './document-upload.ts';
import { INVALID_FORM_MESSAGE } from '../../lib/form-action.ts';

const DEFAULT_SORT = 'title';
const column = listColumnHelper<StaffDocument>();
const COLUMNS = [
  column.accessor('title', {
    header: 'Titolo',
    meta: { rowHeader: true },
    cell: (c) => <Link to={href('portal.document', { documentId: c.row.original.id })}>{c.getValue()}</Link>,
  }),
  column.accessor('category', { header: 'Categoria', cell: (c) => DOCUMENT_CATEGORY_LABELS[c.getValue()] }),
  column.accessor('sizeBytes', { header: 'Dimensione', cell: (c) => formatBytes(c.getValue()) }),
  column.accessor('published', {
    header: 'Pubblicato',
    enableSorting: false,
    cell: (c) => (c.getValue() ? 'Sì' : 'No'),
  }),
  column.accessor('createdAt', { header: 'Caricato il', cell: (c) => formatShortDateTime(c.getValue()) }),
];
const SORT_OPTIONS = sortOptionsOf([
  { value: 'title', label: 'Titolo' },
  { value: 'category', label: 'Categoria' },
  { value: 'createdAt', label: 'Data di caricamento' },
  { value: 'sizeBytes', label: 'Dimensione' },
]);
const FILTERS: SelectFilter[] = [
  {
    name: 'category',
    label: 'Categoria',
    anyLabel: 'Tutte',
    options: DOCUMENT_CATEGORIES.map((c) => ({ value: c, label: DOCUMENT_CATEGORY_LABELS[c] })),
  },
  {
    name: 'published',
    label: 'Pubblicazione',
    anyLabel: 'Tutti',
    options: [
      { value: 'true', label: 'Pubblicati' },
      { value: 'false', label: 'Non pubblicati' },
    ],
  },
];

type Data = ListLoaderData<typeof listDocuments>;

export function loader({ request }: LoaderFunctionArgs): Promise<Data> {
  return loadList(listDocuments, request);
}

/** Uploads a new document (unpublished), then opens its page. */
export async function action({ request }: ActionFunctionArgs): Promise<FormResult | Response> {
  const form = await request.formData();
  const fields = {
    title: text(form, 'title'),
    category: text(form, 'category'),
    description: text(form, 'description'),
  };
  const parsed = DocumentCreateQuerySchema.safeParse(fields);
  const errors = parsed.success ? {} : issuesToErrors(parsed.error.issues);
  const file = form.get('file');
  const problem = fileProblem(file);
  if (problem) errors.file = problem;
  if (Object.keys(errors).length > 0) return { message: INVALID_FORM_MESSAGE, errors };
  try {
    const doc = await sendPdf(file as File, { query: fields });
    return redirect(`${href('portal.document', { documentId: doc.id })}?caricato=1`);
  } catch (error) {
    const result = failureResult(error);
    // The API's refusal of the file itself (not a PDF, too large) belongs next to the file input.
    return {
      ...result,
      errors: {
        ...result.errors,
        ...(Object.keys(result.errors ?? {}).length === 0 ? { file: result.message ?? '' } : {}),
      },
    };
  }
}

/** Staff: the documents of `/documentazione` (published or not), with the list pattern, and the upload of a new one. */
export function Component() {
  const { query, result, problem } = useLoaderData<Data>();
  const outcome = useActionData<FormResult>();
  const page = getPage('portal.documents');
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      <FilterBar
        label="Cerca nei documenti"
        query={query}
        search={{ label: 'Cerca', hint: 'Parte del titolo, della descrizione o del nome del file.' }}
        selects={FILTERS}
        sortOptions={SORT_OPTIONS}
        defaultSort={DEFAULT_SORT}
        errors={problem?.errors}
      />
      <ListResults
        query={query}
        result={result}
        problem={problem}
        caption="Documenti"
        columns={COLUMNS}
        defaultSort={DEFAULT_SORT}
        nouns={{ one: 'documento trovato', many: 'documenti trovati' }}
        noMatch="Nessun documento corrisponde alla ricerca e ai filtri."
        exportEndpoint={exportDocuments}
        exportName="documenti"
      />
      <section className="mt-5" aria-labelledby="nuovo-documento">
        <h2 id="nuovo-documento" className="h3">
          Carica un documento
        </h2>
        <p>Il documento caricato non è pubblicato: lo pubblichi dalla sua pagina dopo averlo controllato.</p>
        <div role={outcome?.message ? 'alert' : undefined}>
          {outcome?.message && <div className="alert alert-danger">{outcome.message}</div>}
        </div>
        <Form method="post" encType="multipart/form-data" noValidate data-testid="upload-form">
          <DocumentFields prefix="nuovo" errors={outcome?.errors ?? {}} />
          <PdfInput prefix="nuovo" label="File PDF" errors={outcome?.errors ?? {}} />
          <SubmitButton idle="Carica il documento" busy="Caricamento in corso…" />
        </Form>
      </section>
    </>
  );
}
