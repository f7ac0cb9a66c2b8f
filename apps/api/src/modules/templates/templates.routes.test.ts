import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEMPLATE_MESSAGES,
  TEMPLATE_SMS_MAX,
  TemplateDetailSchema,
  TemplateListResponseSchema,
  TemplatePreviewSchema,
  TemplateVersionListSchema,
} from '@portale/shared/templates';
import { DEMO_ACCOUNTS } from '../../seed/seed.ts';
import { buildTestApp, type TestApp, sqlRows } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import { settleAfterResponse } from '../accounts/after-response.ts';
import { allowedPlaceholders } from './template-catalog.ts';

let t: TestApp;
const clients = new Map<string, ApiClient>();
const admin = () => clients.get('superadmin@demo.test')!;
const put = (client: ApiClient, key: string, payload: unknown) =>
  client.send('PUT', `/api/templates/${key}`, { payload: payload as Record<string, unknown> });

async function current(key: string) {
  const res = await admin().get(`/api/templates/${key}`);
  expect(res.statusCode, res.body).toBe(200);
  return TemplateDetailSchema.parse(res.json());
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

describe('who may manage templates', () => {
  it('the super-admin alone; a guest gets 401, every other account 403', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/templates'],
      ['GET', '/api/templates/export?format=csv'],
      ['GET', '/api/templates/email.verifica'],
      ['GET', '/api/templates/email.verifica/versions'],
      ['POST', '/api/templates/sms.codice/preview', { textBody: 'Codice {{code}}' }],
      ['PUT', '/api/templates/sms.codice', { baseVersion: 1, textBody: 'x {{code}}' }],
      ['POST', '/api/templates/sms.codice/versions/1/restore'],
    ];
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    for (const [method, url, payload] of calls) {
      expect(
        (
          await guest.send(
            method as 'GET',
            url,
            payload ? { payload: payload as Record<string, unknown> } : {},
          )
        ).statusCode,
        url,
      ).toBe(401);
      for (const [email, client] of clients) {
        if (email === 'superadmin@demo.test') continue;
        const res = await client.send(
          method as 'GET',
          url,
          payload ? { payload: payload as Record<string, unknown> } : {},
        );
        expect(res.statusCode, `${email} ${method} ${url} ${res.body.slice(0, 100)}`).toBe(403);
      }
    }
    for (const [method, url, payload] of calls.slice(0, 5)) {
      const res = await admin().send(
        method as 'GET',
        url,
        payload ? { payload: payload as Record<string, unknown> } : {},
      );
      expect(res.statusCode, `${url} ${res.body.slice(0, 200)}`).toBe(200);
    }
  });

  it('an unknown key is a 404 with an Italian message', async () => {
    for (const [method, url] of [
      ['GET', '/api/templates/email.inesistente'],
      ['GET', '/api/templates/email.inesistente/versions'],
      ['POST', '/api/templates/email.inesistente/versions/1/restore'],
    ] as const) {
      const res = await admin().send(method, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().message).toBe(TEMPLATE_MESSAGES.notFound);
    }
    const version = await admin().post('/api/templates/sms.codice/versions/999/restore');
    expect(version.statusCode).toBe(404);
    expect(version.json().message).toBe(TEMPLATE_MESSAGES.versionNotFound);
  });
});

describe('the list', () => {
  it('searches, filters by channel, sorts, pages and exports', async () => {
    const all = TemplateListResponseSchema.parse((await admin().get('/api/templates?pageSize=100')).json());
    const [{ n } = { n: -1 }] = await sqlRows<{ n: number }>(
      t,
      sql`select count(distinct key)::int as n from message_templates`,
    );
    expect(all.total).toBe(n);
    expect(all.items.map((i) => i.key)).toEqual(
      [...all.items.map((i) => i.key)].sort((a, b) => a.localeCompare(b)),
    );

    const sms = TemplateListResponseSchema.parse((await admin().get('/api/templates?channel=sms')).json());
    expect(sms.items.length).toBeGreaterThan(0);
    expect(sms.items.every((i) => i.channel === 'sms')).toBe(true);

    const search = TemplateListResponseSchema.parse(
      (await admin().get('/api/templates?q=prenotazione')).json(),
    );
    expect(search.items.map((i) => i.key)).toContain('email.prenotazione-confermata');

    const desc = TemplateListResponseSchema.parse(
      (await admin().get('/api/templates?sort=-key&pageSize=25&page=2')).json(),
    );
    expect(desc.page).toBe(2);
    expect(desc.items[0]?.key).toBe([...all.items].reverse()[25]?.key);

    const bad = await admin().get('/api/templates?channel=fax&sort=oggetto');
    expect(bad.statusCode).toBe(422);

    const csv = await admin().get('/api/templates/export?format=csv&channel=sms');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toContain('Chiave');
    expect(lines).toHaveLength(sms.total + 1);
  });
});

describe('editing', () => {
  it('shows the allowed placeholders, those of the default', async () => {
    const detail = await current('email.reset-password');
    expect(detail.placeholders).toEqual(['firstName', 'link']);
    expect(detail.hasDefaultLayout).toBe(true);
    expect((await current('sms.codice')).maxLength).toBe(TEMPLATE_SMS_MAX);
  });

  it('refuses an unknown placeholder, a section, a broken tag and an over-long SMS, per field and in Italian', async () => {
    const unknown = await put(admin(), 'email.verifica', {
      baseVersion: 1,
      subject: 'Ciao {{nome}}',
      textBody: 'Apri {{link}} {{codice}} {{codice}}',
    });
    expect(unknown.statusCode).toBe(422);
    const errors = unknown.json().errors as Record<string, string[]>;
    expect(errors.subject?.[0]).toContain('{{nome}}');
    expect(errors.textBody?.[0]).toBe(
      TEMPLATE_MESSAGES.unknownPlaceholder(['codice'], [...allowedPlaceholders('email.verifica')]),
    );
    expect(errors.textBody?.[0]).toContain('Puoi usare: {{firstName}}, {{link}}');

    const section = await put(admin(), 'email.verifica', {
      baseVersion: 1,
      subject: 'Ciao',
      textBody: '{{#link}}x{{/link}}',
    });
    expect(section.statusCode).toBe(422);
    expect(section.json().errors.textBody[0]).toMatch(/solo segnaposto semplici/);

    for (const body of ['{{{link}}}', '{{> altro}}', 'apri {{link', '{{=<% %>=}}']) {
      const res = await put(admin(), 'email.verifica', { baseVersion: 1, subject: 'Ciao', textBody: body });
      expect(res.statusCode, body).toBe(422);
      expect(res.json().errors.textBody, body).toHaveLength(1);
    }

    const long = await put(admin(), 'sms.codice', {
      baseVersion: 1,
      textBody: `${'a'.repeat(TEMPLATE_SMS_MAX)} {{code}}`,
    });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors.textBody[0]).toContain(`al massimo ${TEMPLATE_SMS_MAX} caratteri`);
    const subject = await put(admin(), 'sms.codice', {
      baseVersion: 1,
      subject: 'Oggetto',
      textBody: '{{code}}',
    });
    expect(subject.json().errors.subject).toEqual([TEMPLATE_MESSAGES.noSubject]);
    // What the message delivers must stay: a reset e-mail without its link, an SMS without its code.
    const noLink = await put(admin(), 'email.reset-password', {
      baseVersion: 1,
      subject: 'Nuova password',
      textBody: 'Gentile {{firstName}}, scegli una nuova password.',
    });
    expect(noLink.statusCode).toBe(422);
    expect(noLink.json().errors.textBody).toEqual([TEMPLATE_MESSAGES.missingPlaceholder(['link'])]);
    expect(
      (await put(admin(), 'sms.codice', { baseVersion: 1, textBody: 'Il tuo codice arriverà.' })).json()
        .errors.textBody,
    ).toEqual([TEMPLATE_MESSAGES.missingPlaceholder(['code'])]);
    const empty = await put(admin(), 'email.verifica', { baseVersion: 1, subject: '', textBody: '  ' });
    expect(Object.keys(empty.json().errors).sort()).toEqual(['textBody']);
    // Nothing was written.
    expect((await current('email.verifica')).version).toBe(1);
  });

  it('saves a new version, audited; a save from a stale version is a 409', async () => {
    const before = await current('sms.firma-adesione');
    const saved = await put(admin(), 'sms.firma-adesione', {
      baseVersion: before.version,
      textBody: 'Codice firma {{ministryCode}}: {{code}}.',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const detail = TemplateDetailSchema.parse(saved.json());
    expect(detail.version).toBe(before.version + 1);
    expect(detail.updatedBy).not.toBeNull();

    const stale = await put(admin(), 'sms.firma-adesione', {
      baseVersion: before.version,
      textBody: 'Altro {{code}}',
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(TEMPLATE_MESSAGES.stale(detail.version, before.version));

    const [audit] = await sqlRows<{ action: string; after: { version: number } }>(
      t,
      sql`select action, after from audit_log where entity = 'template' and entity_id = 'sms.firma-adesione' order by id desc limit 1`,
    );
    expect(audit).toMatchObject({ action: 'template.updated', after: { version: detail.version } });

    const versions = TemplateVersionListSchema.parse(
      (await admin().get('/api/templates/sms.firma-adesione/versions')).json(),
    );
    expect(versions.items.map((v) => v.version)).toEqual([detail.version, before.version]);
    expect(versions.items[0]!.createdBy).not.toBeNull();
    expect(versions.items[1]!.createdBy).toBeNull();
  });
});

describe('preview', () => {
  it('renders an e-mail draft with sample data as HTML (escaped, no raw HTML) and text', async () => {
    const res = await admin().post('/api/templates/email.reset-password/preview', {
      subject: 'Nuova password per {{firstName}}',
      textBody: 'Ciao **{{firstName}}**,\n<script>alert(1)</script>\n[Scegli la password]({{link}})',
    });
    expect(res.statusCode, res.body).toBe(200);
    const preview = TemplatePreviewSchema.parse(res.json());
    if (preview.channel !== 'email') throw new Error('not an e-mail');
    expect(preview.subject).toBe('Nuova password per Maria');
    expect(preview.html).toContain('<strong>Maria</strong>');
    expect(preview.html).not.toContain('<script>');
    expect(preview.html).toContain('&lt;script&gt;');
    expect(preview.html).toMatch(/<a href="https:\/\/portale\.esempio\.it\/[^"]+">Scegli la password<\/a>/);
    expect(preview.text).toContain('Ciao **Maria**');
  });

  it('renders an SMS with its length, and refuses an unknown placeholder', async () => {
    const sms = TemplatePreviewSchema.parse(
      (await admin().post('/api/templates/sms.codice/preview', { textBody: 'Codice: {{code}}' })).json(),
    );
    expect(sms).toEqual({ channel: 'sms', text: 'Codice: 123456', length: 14 });
    const bad = await admin().post('/api/templates/sms.codice/preview', { textBody: 'Codice: {{pin}}' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.textBody[0]).toContain('{{pin}}');
  });

  it('renders a document draft as a real PDF', async () => {
    const res = await admin().post('/api/templates/documento.adesione/preview', {
      subject: 'Adesione di prova',
      textBody: '## Istituto\nDenominazione: {{instituteName}}\n{{schoolSites}}',
    });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});

describe('the next message uses the version in use', () => {
  async function resetMail() {
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    expect(
      (await guest.post('/api/auth/forgot-password', { email: 'insegnante@demo.test' })).statusCode,
    ).toBe(202);
    await settleAfterResponse(t.app);
    const [row] = await sqlRows<{
      template_version: number;
      subject: string;
      html_body: string;
      text_body: string;
    }>(
      t,
      sql`select template_version, subject, html_body, text_body from outbox where recipient = 'insegnante@demo.test' and template_key = 'email.reset-password' order by id desc limit 1`,
    );
    return row!;
  }

  it('an edit is used by the next e-mail; a restore brings the old text back as a new version', async () => {
    const original = await resetMail();
    expect(original.html_body).toContain('<a href="');
    const before = await current('email.reset-password');

    const saved = await put(admin(), 'email.reset-password', {
      baseVersion: before.version,
      subject: 'Password: {{firstName}}, ecco il collegamento',
      textBody:
        'Gentile {{firstName}},\n\nscegli una **nuova password** da qui:\n{{link}}\n\nTesto modificato.',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const edited = TemplateDetailSchema.parse(saved.json());
    expect(edited.hasDefaultLayout).toBe(false);

    const mail = await resetMail();
    expect(mail.template_version).toBe(edited.version);
    expect(mail.subject).toMatch(/^Password: .+, ecco il collegamento$/);
    expect(mail.text_body).toContain('Testo modificato.');
    expect(mail.html_body).toContain('<strong>nuova password</strong>');
    expect(mail.html_body).toMatch(/<a href="http[^"]+\/auth\/reset-password\?token=[^"]+">/);

    const restore = await admin().post(
      `/api/templates/email.reset-password/versions/${before.version}/restore`,
    );
    expect(restore.statusCode, restore.body).toBe(201);
    const restored = TemplateDetailSchema.parse(restore.json());
    expect(restored).toMatchObject({
      version: edited.version + 1,
      restoredFromVersion: before.version,
      subject: before.subject,
      textBody: before.textBody,
      hasDefaultLayout: true,
    });
    const again = await admin().post(
      `/api/templates/email.reset-password/versions/${restored.version}/restore`,
    );
    expect(again.statusCode).toBe(409);

    const back = await resetMail();
    expect(back.template_version).toBe(restored.version);
    expect(back.subject).toBe(original.subject);
    expect(back.text_body.replace(/token=[\w-]+/g, '')).toBe(original.text_body.replace(/token=[\w-]+/g, ''));

    const audit = await sqlRows<{ action: string }>(
      t,
      sql`select action from audit_log where entity = 'template' and entity_id = 'email.reset-password' order by id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['template.updated', 'template.restored']);
  });
});
