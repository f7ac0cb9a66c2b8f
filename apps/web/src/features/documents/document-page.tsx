import {
  Form,
  useActionData,
  useLoaderData,
  useLocation,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import {
  DocumentUpdateSchema,
  downloadDocument,
  getDocument,
  updateDocument,
  type StaffDocument,
} from '@portale/shared/documents';
import { Button } from 'design-react-kit';
import { getPage } from '@portale/shared/pages';
import { DOCUMENT_CATEGORY_LABELS } from '@portale/shared/public';
import { parseId } from '@portale/shared/validation';
import { PageHeader } from '../../components/page-header.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { callApi, downloadFile } from '../../lib/api-client.ts';
import { formatBytes, formatDateTime } from '../../lib/format.ts';
import { failureResult, text, type FormResult } from '../../lib/form-data.ts';
import { DocumentFields, PdfInput } from './document-fields.tsx';
import { fileProblem, sendPdf } from './document-upload.ts';
import { invalidForm } from '../../lib/form-action.ts';

type Result = FormResult & { intent: string };

const idOf = (params: LoaderFunctionArgs['params']) => parseId(params.documentId)!;

export function loader({ request, params }: LoaderFunctionArgs): Promise<StaffDocument> {
  return callApi(getDocument, { params: { documentId: idOf(params) } }, { signal: request.signal });
}

const DONE: Record<string, string> = {
  publish: 'Documento pubblicato: ora è nella pagina Documentazione.',
  unpublish: 'Documento ritirato: non è più nella pagina Documentazione.',
  edit: 'Modifiche salvate.',
  replace: 'File sostituito: chi scarica il documento riceve la nuova versione.',
};

/** Publish, unpublish, edit the fields, or replace the PDF. */
export async function action({ request, params }: ActionFunctionArgs): Promise<Result> {
  const documentId = idOf(params);
  const form = await request.formData();
  const intent = text(form, 'intent');
  try {
    if (intent === 'replace') {
      const problem = fileProblem(form.get('file'));
      if (problem) return { intent, message: problem, errors: { file: problem } };
      await sendPdf(form.get('file') as File, { documentId, query: {} });
      return { intent, ok: true, message: DONE.replace! };
    }
    const body =
      intent === 'publish'
        ? { published: true }
        : intent === 'unpublish'
          ? { published: false }
          : {
              title: text(form, 'title'),
              category: text(form, 'category'),
              description: text(form, 'description'),
            };
    const parsed = DocumentUpdateSchema.safeParse(body);
    if (!parsed.success) return { intent, ...invalidForm(parsed.error.issues) };
    await callApi(updateDocument, { params: { documentId }, body: parsed.data });
    return { intent, ok: true, message: DONE[intent] ?? DONE.edit! };
  } catch (error) {
    const result = failureResult(error);
    return { intent, ...result, ...(intent === 'replace' ? { errors: { file: result.message ?? '' } } : {}) };
  }
}

/** Staff: one document: preview, publish or unpublish, edit, replace the file. */
export function Component() {
  const doc = useLoaderData<StaffDocument>();
  const outcome = useActionData<Result>();
  const uploaded = new URLSearchParams(useLocation().search).get('caricato') === '1';
  const page = getPage('portal.document');
  const message = outcome?.message ?? (uploaded ? 'Documento caricato. Non è ancora pubblicato.' : undefined);
  const tone = outcome && !outcome.ok ? 'danger' : 'success';
  const errorsOf = (intent: string) => (outcome?.intent === intent ? (outcome.errors ?? {}) : {});
  return (
    <>
      <PageHeader title={`${page.title}: ${doc.title}`} description={page.description} />
      <div role={tone === 'danger' ? 'alert' : 'status'} aria-live="polite">
        {message && (
          <div className={`alert alert-${tone}`} data-testid="document-message">
            {message}
          </div>
        )}
      </div>
      <dl className="row" data-testid="document-facts">
        <dt className="col-sm-3">Categoria</dt>
        <dd className="col-sm-9">{DOCUMENT_CATEGORY_LABELS[doc.category]}</dd>
        <dt className="col-sm-3">File</dt>
        <dd className="col-sm-9">
          {doc.fileName} ({formatBytes(doc.sizeBytes)})
        </dd>
        <dt className="col-sm-3">Stato</dt>
        <dd className="col-sm-9">
          {doc.publishedAt ? `Pubblicato il ${formatDateTime(doc.publishedAt)}` : 'Non pubblicato'}
        </dd>
      </dl>
      <div className="d-flex flex-wrap gap-3 mb-4">
        <Button
          type="button"
          color="primary"
          outline
          onClick={() =>
            void downloadFile(downloadDocument, { params: { documentId: doc.id } }, undefined, {
              fallbackName: doc.fileName,
            })
          }
        >
          Scarica il PDF<span className="visually-hidden"> «{doc.title}»</span>
        </Button>
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value={doc.published ? 'unpublish' : 'publish'} />
          <Button type="submit" color={doc.published ? 'danger' : 'primary'} outline={doc.published}>
            {doc.published ? 'Ritira dalla pagina Documentazione' : 'Pubblica nella pagina Documentazione'}
          </Button>
        </Form>
      </div>

      <section className="mt-4" aria-labelledby="modifica-documento">
        <h2 id="modifica-documento" className="h3">
          Modifica i dati
        </h2>
        <Form
          method="post"
          noValidate
          preventScrollReset
          key={`${doc.title}|${doc.category}|${doc.description}`}
          data-testid="edit-form"
        >
          <input type="hidden" name="intent" value="edit" />
          <DocumentFields prefix="modifica" doc={doc} errors={errorsOf('edit')} />
          <SubmitButton idle="Salva le modifiche" busy="Salvataggio in corso…" />
        </Form>
      </section>

      <section className="mt-5" aria-labelledby="sostituisci-heading">
        <h2 id="sostituisci-heading" className="h3">
          Sostituisci il file
        </h2>
        <p>
          Il nuovo PDF prende il posto di quello attuale (che non viene conservato; il registro delle attività
          ne tiene traccia).
        </p>
        <Form
          method="post"
          encType="multipart/form-data"
          noValidate
          preventScrollReset
          data-testid="replace-form"
        >
          <input type="hidden" name="intent" value="replace" />
          <PdfInput prefix="sostituisci" label="Nuovo file PDF" errors={errorsOf('replace')} />
          <SubmitButton idle="Sostituisci il file" busy="Caricamento in corso…" />
        </Form>
      </section>
    </>
  );
}
