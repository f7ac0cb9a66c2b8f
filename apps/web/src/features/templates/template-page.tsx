import { useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { buildPath } from '@portale/shared/http';
import { getPage } from '@portale/shared/pages';
import {
  getTemplate,
  listTemplates,
  listTemplateVersions,
  previewTemplate,
  restoreTemplateVersion,
  TEMPLATE_MESSAGES,
  TemplateDraftSchema,
  TemplatePreviewSchema,
  updateTemplate,
} from '@portale/shared/templates';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError, apiRequest, callApi } from '../../lib/api-client.ts';
import { failureResult, text } from '../../lib/form-data.ts';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { invalidForm } from '../../lib/form-action.ts';
import { EditorSection } from './template-editor.tsx';
import { KEY_PARAM, TemplateList } from './template-list.tsx';
import type { Editor, Outcome } from './template-types.ts';

type Data = ListLoaderData<typeof listTemplates> & { editor: Editor | null };

export async function loader({ request }: LoaderFunctionArgs): Promise<Data> {
  const key = new URL(request.url).searchParams.get(KEY_PARAM)?.trim();
  if (key) {
    try {
      const [detail, versions] = await Promise.all([
        callApi(getTemplate, { params: { key } }, { signal: request.signal }),
        callApi(listTemplateVersions, { params: { key } }, { signal: request.signal }),
      ]);
      return { query: {}, result: null, problem: null, editor: { key, detail, versions: versions.items } };
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 422))
        return { query: {}, result: null, problem: null, editor: { key, detail: null, versions: [] } };
      throw error;
    }
  }
  const list = await loadList(listTemplates, request);
  const offset = list.result ? (list.result.page - 1) * list.result.pageSize : 0;
  const result = list.result && {
    ...list.result,
    items: list.result.items.map((item, i) => ({ ...item, id: offset + i + 1 })),
  };
  return { ...list, result, editor: null } as Data;
}

/** Save a new version, preview a draft, or restore an old version (the intent says which). */
export async function action({ request }: ActionFunctionArgs): Promise<Outcome> {
  const form = await request.formData();
  const intent = text(form, 'intent');
  const key = new URL(request.url).searchParams.get(KEY_PARAM) ?? '';
  try {
    if (intent === 'restore') {
      const from = Number(text(form, 'version'));
      const restored = await callApi(restoreTemplateVersion, { params: { key, version: from } });
      return { intent, ok: true, message: TEMPLATE_MESSAGES.restored(from, restored.version) };
    }
    const hasSubject = form.has('subject');
    const draft = { subject: hasSubject ? text(form, 'subject') : null, textBody: text(form, 'textBody') };
    const parsed = TemplateDraftSchema.safeParse(draft);
    if (!parsed.success) return { intent, ...invalidForm(parsed.error.issues) };
    if (intent === 'preview') {
      const answer = await apiRequest<unknown>(buildPath(previewTemplate.path, { key }), {
        method: 'POST',
        body: draft,
      });
      if (answer instanceof Blob) return { intent, ok: true, pdf: answer };
      return { intent, ok: true, preview: TemplatePreviewSchema.parse(answer) };
    }
    const saved = await callApi(updateTemplate, {
      params: { key },
      body: { ...draft, baseVersion: Number(text(form, 'baseVersion')) },
    });
    return { intent, ok: true, message: TEMPLATE_MESSAGES.saved(saved.version) };
  } catch (error) {
    return { intent, ...failureResult(error) };
  }
}

/** Super-admin: the stored templates of every e-mail, SMS and PDF, their editor, preview and versions. */
export function Component() {
  const data = useLoaderData<Data>();
  const page = getPage('portal.templates');
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      {data.editor ? <EditorSection editor={data.editor} /> : <TemplateList data={data} />}
    </>
  );
}
