import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentRecords, contactMessages, outbox } from '../src/db/schema/index.ts';
import { seedMessageTemplates } from '../src/seed/message-templates.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { ApiClient } from './http-client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ CONTACT_RATE_LIMIT_MAX: '5', CONTACT_STAFF_EMAIL: 'staff@example.test' });
  await seedMessageTemplates(t.database.db);
});
afterAll(() => t.close());

const valid = {
  name: 'Giulia Esposito',
  email: 'Giulia.Esposito@Example.it',
  topic: 'iscrizione',
  message: 'Buongiorno, vorrei sapere entro quando la nostra scuola può iscriversi al programma.',
  privacyAccepted: true,
};

async function client(ip: string) {
  const c = new ApiClient(t, ip);
  await c.csrf();
  return c;
}
const counts = async () => ({
  messages: (await t.database.db.select().from(contactMessages)).length,
  outbox: (await t.database.db.select().from(outbox)).length,
});

describe('POST /api/public/contact', () => {
  it('stores a valid message and queues the staff e-mail in the outbox', async () => {
    const c = await client('10.0.0.1');
    const res = await c.send('POST', '/api/public/contact', { payload: valid });
    expect(res.statusCode).toBe(202);
    expect(res.json().message).toContain('Grazie, il tuo messaggio è stato inviato');
    const [message] = await t.database.db.select().from(contactMessages);
    expect(message).toMatchObject({
      name: 'Giulia Esposito',
      email: 'giulia.esposito@example.it',
      topic: 'iscrizione',
      status: 'nuovo',
    });
    const [mail] = await t.database.db.select().from(outbox);
    expect(mail).toMatchObject({
      id: message!.outboxId,
      channel: 'email',
      recipient: 'staff@example.test',
      templateKey: 'email.contatto-staff',
      status: 'pending',
    });
    expect(mail!.subject).toBe('Nuovo messaggio dal sito: Iscrizione della scuola');
    expect(mail!.textBody).toContain('Giulia Esposito <giulia.esposito@example.it>');
  });

  it('refuses invalid input with Italian per-field errors and stores nothing', async () => {
    const before = await counts();
    const c = await client('10.0.0.2');
    const res = await c.send('POST', '/api/public/contact', {
      payload: { name: 'G', email: 'non-una-mail', topic: 'boh', message: 'corto', privacyAccepted: false },
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.message).toBe('Alcuni dati non sono validi. Controlla i campi evidenziati.');
    expect(body.errors).toEqual({
      name: ['Inserisci nome e cognome (da 2 a 100 caratteri).'],
      email: ['Inserisci un indirizzo e-mail valido.'],
      topic: ["Scegli l'argomento del messaggio."],
      message: ['Scrivi un messaggio di almeno 20 caratteri (al massimo 4000).'],
      privacyAccepted: [
        "Per inviare il messaggio devi dichiarare di aver letto l'informativa sulla privacy.",
      ],
    });
    expect(await counts()).toEqual(before);
  });

  it('accepts a filled honeypot silently but stores and sends nothing', async () => {
    const before = await counts();
    const c = await client('10.0.0.3');
    const res = await c.send('POST', '/api/public/contact', {
      payload: { ...valid, website: 'https://spam.example' },
    });
    expect(res.statusCode).toBe(202);
    expect(res.json().message).toContain('Grazie');
    expect(await counts()).toEqual(before);
  });

  it('limits each IP to 5 messages per window (429 in Italian)', async () => {
    const c = await client('10.0.0.4');
    for (let i = 0; i < 5; i++)
      expect((await c.send('POST', '/api/public/contact', { payload: valid })).statusCode).toBe(202);
    const flood = await c.send('POST', '/api/public/contact', { payload: valid });
    expect(flood.statusCode).toBe(429);
    expect(flood.json()).toMatchObject({
      code: 'rate_limited',
      message: 'Hai inviato troppi messaggi in poco tempo. Riprova tra qualche minuto.',
    });
    expect(Number(flood.headers['retry-after'])).toBeGreaterThan(0);
    const other = await client('10.0.0.5');
    expect((await other.send('POST', '/api/public/contact', { payload: valid })).statusCode).toBe(202);
  });

  it('needs the XSRF token like every unsafe request', async () => {
    const c = await client('10.0.0.6');
    expect((await c.send('POST', '/api/public/contact', { payload: valid, xsrf: false })).statusCode).toBe(
      419,
    );
  });
});

describe('POST /api/consents', () => {
  it('stores the proof of a choice: anonymous id, policy version, choices, time', async () => {
    const c = await client('10.0.1.1');
    const anonymousId = randomUUID();
    const res = await c.send('POST', '/api/consents', {
      payload: {
        anonymousId,
        policyVersion: '2026-01',
        decision: 'accept_all',
        enabledIds: ['necessari', 'analitici'],
        decidedAt: '2026-11-21T09:59:58.000Z',
      },
    });
    expect(res.statusCode).toBe(201);
    const [row] = await t.database.db.select().from(consentRecords);
    expect(row).toMatchObject({
      id: res.json().id,
      anonymousId,
      policyVersion: '2026-01',
      decision: 'accept_all',
      enabledIds: ['necessari', 'analitici'],
    });
    expect(row!.decidedAt.toISOString()).toBe('2026-11-21T09:59:58.000Z');
    expect(row!.recordedAt.toISOString()).toBe(t.clock.now().toISOString());
  });

  it('has no column that could hold an IP address or a user agent', async () => {
    const result = await t.database.db.execute(
      sql`select column_name from information_schema.columns where table_name = 'consent_records'`,
    );
    const columns = (result as unknown as { rows: { column_name: string }[] }).rows
      .map((r) => r.column_name)
      .sort();
    expect(columns).toEqual([
      'anonymous_id',
      'decided_at',
      'decision',
      'enabled_ids',
      'id',
      'policy_version',
      'recorded_at',
    ]);
  });

  it('refuses a malformed record with 422', async () => {
    const c = await client('10.0.1.2');
    const res = await c.send('POST', '/api/consents', {
      payload: {
        anonymousId: 'me',
        policyVersion: '',
        decision: 'maybe',
        enabledIds: ['NO SPACES'],
        decidedAt: 'ieri',
      },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual([
      'anonymousId',
      'decidedAt',
      'decision',
      'enabledIds.0',
      'policyVersion',
    ]);
  });
});
