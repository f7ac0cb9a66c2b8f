import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DOCUMENT_MAX_BYTES,
  DOCUMENT_MESSAGES,
  DocumentListResponseSchema,
  StaffDocumentSchema,
} from '@portale/shared/documents';
import { DocumentListSchema } from '@portale/shared/public';
import { DEMO_ACCOUNTS } from '../../seed/seed.ts';
import { buildTestApp, type TestApp, sqlRows } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp, guestClient } from '../../../test/http-client.ts';

let t: TestApp;
const clients = new Map<string, ApiClient>();
const as = (email: string) => clients.get(email)!;
const staff = () => as('cromos@demo.test');
const STAFF = new Set(['superadmin@demo.test', 'sylla@demo.test', 'cromos@demo.test']);

const pdf = (text: string) =>
  Buffer.from(
    `%PDF-1.4\n% ${text}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
    'latin1',
  );

function upload(
  client: ApiClient,
  query: string,
  body: Buffer,
  contentType = 'application/pdf',
  method: 'POST' | 'PUT' = 'POST',
  url = '/api/documents',
) {
  return client.send(method, `${url}?${query}`, { payload: body, headers: { 'content-type': contentType } });
}

async function create(title: string, category = 'guide') {
  const res = await upload(
    staff(),
    new URLSearchParams({
      title,
      category,
      description: 'Descrizione di prova',
      fileName: 'Guida prova.pdf',
    }).toString(),
    pdf(title),
  );
  expect(res.statusCode, res.body).toBe(201);
  return StaffDocumentSchema.parse(res.json());
}

async function publicTitles(): Promise<string[]> {
  const list = DocumentListSchema.parse((await (await guestClient(t)).get('/api/public/documents')).json());
  return list.groups.flatMap((g) => g.documents.map((d) => d.title));
}

beforeAll(async () => {
  t = await buildTestApp();
  for (const account of DEMO_ACCOUNTS) {
    const client = new ApiClient(t, nextIp());
    expect((await client.login(account.email)).statusCode, account.email).toBe(200);
    clients.set(account.email, client);
  }
}, 120_000);
afterAll(() => t.close());

describe('staff documents', () => {
  it('every role: staff allowed, guest 401, every other account 403 (uploads refused before the body is read)', async () => {
    const doc = await create('Documento dei permessi');
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/documents'],
      ['GET', '/api/documents/export?format=csv'],
      ['GET', `/api/documents/${doc.id}`],
      ['GET', `/api/documents/${doc.id}/file`],
      ['PATCH', `/api/documents/${doc.id}`, { description: 'Aggiornata' }],
    ];
    for (const [method, url, payload] of calls) {
      expect(
        (
          await (
            await guestClient(t)
          ).send(method as 'GET', url, payload ? { payload: payload as object } : {})
        ).statusCode,
        url,
      ).toBe(401);
      for (const account of DEMO_ACCOUNTS) {
        const res = await as(account.email).send(
          method as 'GET',
          url,
          payload ? { payload: payload as object } : {},
        );
        expect(res.statusCode, `${method} ${url} ${account.email}`).toBe(
          STAFF.has(account.email) ? 200 : 403,
        );
      }
    }
    for (const account of DEMO_ACCOUNTS.filter((a) => !STAFF.has(a.email))) {
      expect(
        (await upload(as(account.email), 'title=Intruso&category=guide', pdf('x'))).statusCode,
        account.email,
      ).toBe(403);
      expect(
        (
          await upload(
            as(account.email),
            '',
            pdf('x'),
            'application/pdf',
            'PUT',
            `/api/documents/${doc.id}/file`,
          )
        ).statusCode,
        account.email,
      ).toBe(403);
    }
    expect(
      (
        await upload(
          await guestClient(t),
          'title=Intruso&category=guide',
          Buffer.alloc(DOCUMENT_MAX_BYTES + 10, 0x25),
        )
      ).statusCode,
    ).toBe(401);
  });

  it('uploads a PDF unpublished (audited): invisible to the public until published, hidden again when unpublished', async () => {
    const doc = await create('Guida alle visite nei plessi');
    expect(doc).toMatchObject({
      category: 'guide',
      published: false,
      publishedAt: null,
      fileName: 'Guida-prova.pdf',
      description: 'Descrizione di prova',
    });
    const [audit] = await sqlRows<{ action: string; after: { sha256: string } }>(
      t,
      sql`select action, after from audit_log where entity = 'document' and entity_id = ${String(doc.id)}`,
    );
    expect(audit?.action).toBe('document.created');
    expect(audit?.after.sha256).toMatch(/^[0-9a-f]{64}$/);

    expect(await publicTitles()).not.toContain(doc.title);
    expect((await (await guestClient(t)).get(`/api/public/documents/${doc.id}/file`)).statusCode).toBe(404);
    // Staff may preview it before publishing.
    const preview = await staff().get(`/api/documents/${doc.id}/file`);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('application/pdf');
    expect(preview.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const published = await staff().send('PATCH', `/api/documents/${doc.id}`, {
      payload: { published: true, category: 'regolamenti' },
    });
    expect(published.statusCode).toBe(200);
    expect(published.json()).toMatchObject({ published: true, category: 'regolamenti' });
    const list = DocumentListSchema.parse((await (await guestClient(t)).get('/api/public/documents')).json());
    expect(list.groups.find((g) => g.category === 'regolamenti')?.documents.map((d) => d.title)).toContain(
      doc.title,
    );
    const file = await (await guestClient(t)).get(`/api/public/documents/${doc.id}/file`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(pdf(doc.title))).toBe(true);

    const hidden = await staff().send('PATCH', `/api/documents/${doc.id}`, { payload: { published: false } });
    expect(hidden.json()).toMatchObject({ published: false });
    expect(await publicTitles()).not.toContain(doc.title);
    expect((await (await guestClient(t)).get(`/api/public/documents/${doc.id}/file`)).statusCode).toBe(404);
    const actions = await sqlRows<{ action: string }>(
      t,
      sql`select action from audit_log where entity = 'document' and entity_id = ${String(doc.id)} order by id`,
    );
    expect(actions.map((a) => a.action)).toEqual([
      'document.created',
      'document.published',
      'document.unpublished',
    ]);
  });

  it('refuses what is not a PDF (magic bytes), an empty file, a file too large (413) and bad fields; nothing is stored', async () => {
    const before = (
      await sqlRows<{ n: string | number }>(t, sql`select count(*) as n from public_documents`)
    )[0]!.n;
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const notPdf = await upload(staff(), 'title=Immagine&category=guide&fileName=finto.pdf', png);
    expect(notPdf.statusCode).toBe(422);
    expect(notPdf.json()).toMatchObject({ code: 'not_pdf', message: DOCUMENT_MESSAGES.notPdf });
    const html = await upload(
      staff(),
      'title=Pagina&category=guide',
      Buffer.from('<html><script>alert(1)</script></html>'),
    );
    expect(html.json()).toMatchObject({ code: 'not_pdf' });
    const empty = await upload(staff(), 'title=Vuoto&category=guide', Buffer.alloc(0));
    expect(empty.statusCode).toBe(422);
    const big = Buffer.concat([pdf('grande'), Buffer.alloc(DOCUMENT_MAX_BYTES, 0x20)]);
    const tooBig = await upload(staff(), 'title=Grande&category=guide', big);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toMatchObject({ statusCode: 413, message: DOCUMENT_MESSAGES.tooLarge });
    const wrongType = await upload(staff(), 'title=Testo&category=guide', pdf('x'), 'text/plain');
    expect(wrongType.statusCode).toBe(415);
    const fields = await upload(staff(), 'title=x&category=ricette', pdf('x'));
    expect(fields.statusCode).toBe(422);
    expect(Object.keys(fields.json<{ errors: Record<string, string[]> }>().errors).sort()).toEqual([
      'category',
      'title',
    ]);
    const after = (
      await sqlRows<{ n: string | number }>(t, sql`select count(*) as n from public_documents`)
    )[0]!.n;
    expect(Number(after)).toBe(Number(before));

    const doc = await create('Documento da correggere');
    expect(
      (await staff().send('PATCH', `/api/documents/${doc.id}`, { payload: { category: 'ricette' } }))
        .statusCode,
    ).toBe(422);
    expect(
      (await staff().send('PATCH', '/api/documents/987654', { payload: { title: 'Nuovo titolo' } }))
        .statusCode,
    ).toBe(404);
    expect((await staff().get('/api/documents/987654')).statusCode).toBe(404);
    expect(
      (await upload(staff(), '', pdf('x'), 'application/pdf', 'PUT', '/api/documents/987654/file'))
        .statusCode,
    ).toBe(404);
  });

  it('replaces the file: the public downloads the new one, the audit keeps what the old one was', async () => {
    const doc = await create('Regolamento da sostituire', 'regolamenti');
    await staff().send('PATCH', `/api/documents/${doc.id}`, { payload: { published: true } });
    const replaced = await upload(
      staff(),
      'fileName=regolamento-v2.pdf',
      pdf('versione 2, più lunga della prima'),
      'application/pdf',
      'PUT',
      `/api/documents/${doc.id}/file`,
    );
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({
      fileName: 'regolamento-v2.pdf',
      published: true,
      sizeBytes: pdf('versione 2, più lunga della prima').length,
    });
    const file = await (await guestClient(t)).get(`/api/public/documents/${doc.id}/file`);
    expect(file.rawPayload.equals(pdf('versione 2, più lunga della prima'))).toBe(true);
    const notPdf = await upload(
      staff(),
      '',
      Buffer.from('GIF89a'),
      'application/pdf',
      'PUT',
      `/api/documents/${doc.id}/file`,
    );
    expect(notPdf.statusCode).toBe(422);
    const [audit] = await sqlRows<{
      before: { fileName: string; sha256: string };
      after: { fileName: string };
    }>(
      t,
      sql`select before, after from audit_log where entity = 'document' and entity_id = ${String(doc.id)} and action = 'document.file-replaced'`,
    );
    expect(audit!.before.fileName).toBe('Guida-prova.pdf');
    expect(audit!.before.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(audit!.after.fileName).toBe('regolamento-v2.pdf');
  });

  it('lists with search, filters, sort and pages, and exports', async () => {
    await create('Zeta elenco documenti');
    const list = DocumentListResponseSchema.parse(
      (await staff().get('/api/documents?q=zeta%20elenco&published=false&category=guide&sort=-title')).json(),
    );
    expect(list.items.map((d) => d.title)).toEqual(['Zeta elenco documenti']);
    expect((await staff().get('/api/documents?sort=content')).statusCode).toBe(422);
    const csv = await staff().get('/api/documents/export?format=csv&q=zeta%20elenco');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['x-total-count']).toBe('1');
    expect(csv.body).toContain('Zeta elenco documenti;Guide operative;');
  });
});
