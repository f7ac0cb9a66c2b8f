import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { outbox } from '../../db/schema/index.ts';
import type { Db } from '../../db/client.ts';
import { buildAccountsApp } from '../../../test/accounts-harness.ts';
import { createMailTransport, createSmsTransport } from './message-transports.ts';
import { enqueueMessage } from './outbox.repository.ts';
import { OutboxWorker } from './outbox.worker.ts';

let t: Awaited<ReturnType<typeof buildAccountsApp>>;
let dir: string;
const received: string[] = [];
let failNext = 0;
let smtp: SMTPServer;
let smtpUrl: string;

beforeAll(async () => {
  t = await buildAccountsApp();
  dir = await mkdtemp(join(tmpdir(), 'outbox-'));
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (failNext > 0) {
          failNext -= 1;
          return callback(Object.assign(new Error('Servizio non disponibile'), { responseCode: 451 }));
        }
        received.push(Buffer.concat(chunks).toString('utf8'));
        return callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
  await t.close();
});

const db = () => t.database.db as Db;
const worker = (mailUrl?: string) =>
  new OutboxWorker({
    db: db(),
    clock: t.clock,
    mail: createMailTransport({
      smtpUrl: mailUrl,
      from: 'Portale <noreply@example.test>',
      mailDir: join(dir, 'mail'),
    }),
    sms: createSmsTransport({ provider: 'file', smsDir: join(dir, 'sms') }),
    log: pino({ level: 'silent' }),
    pollMs: 50,
    maxAttempts: 3,
  });
const queue = (recipient: string, firstName = 'Anna <b>&') =>
  enqueueMessage(db(), {
    templateKey: 'email.verifica',
    recipient,
    data: { firstName, link: 'https://portale.example/verifica?token=abc' },
    now: t.clock.now(),
  });

describe('outbox worker', () => {
  it('delivers e-mail through SMTP with an HTML part (escaped placeholders) and a text part', async () => {
    const id = await queue('anna@example.com');
    const w = worker(smtpUrl);
    expect(await w.runOnce()).toBe(1);
    await w.stop();
    expect(received).toHaveLength(1);
    expect(received[0]).toContain('text/plain');
    expect(received[0]).toContain('text/html');
    expect(received[0]).toMatch(/Anna &lt;b&gt;&amp;/);
    // Automatic mail (RFC 3834), and nothing internal leaves over SMTP.
    expect(received[0]).toMatch(/^Auto-Submitted: auto-generated\r?$/m);
    expect(received[0]).not.toMatch(/^X-(Outbox-Id|Template):/im);
    const [row] = await db().select().from(outbox).where(eq(outbox.id, id));
    expect(row).toMatchObject({ status: 'sent', attempts: 0, sentAt: expect.any(Date) });
  });

  it('retries with backoff when the SMTP server refuses, and never drops the message', async () => {
    received.length = 0;
    failNext = 1;
    const id = await queue('retry@example.com', 'Bruno');
    const w = worker(smtpUrl);
    expect(await w.runOnce()).toBe(0);
    let [row] = await db().select().from(outbox).where(eq(outbox.id, id));
    expect(row).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: expect.stringMatching(/451|non disponibile/),
    });
    expect(await w.runOnce()).toBe(0);
    t.clock.advance(31_000);
    expect(await w.runOnce()).toBe(1);
    [row] = await db().select().from(outbox).where(eq(outbox.id, id));
    expect(row!.status).toBe('sent');
    expect(received).toHaveLength(1);
    await w.stop();
  });

  it('marks a message failed (kept, not deleted) once attempts run out', async () => {
    const id = await queue('nobody@example.com');
    const w = worker('smtp://127.0.0.1:1');
    for (let i = 0; i < 3; i += 1) {
      await w.runOnce();
      t.clock.advance(3_600_000);
    }
    await w.stop();
    const [row] = await db().select().from(outbox).where(eq(outbox.id, id));
    expect(row).toMatchObject({ status: 'failed', attempts: 3 });
  });

  it('without SMTP writes .eml and SMS .txt files named by time', async () => {
    await queue('file@example.com');
    t.clock.advance(1000);
    await enqueueMessage(db(), {
      templateKey: 'sms.codice',
      recipient: '+393330000000',
      data: { code: '123456' },
      now: t.clock.now(),
    });
    const w = worker(undefined);
    w.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await w.stop();
    const mails = await readdir(join(dir, 'mail'));
    expect(mails.length).toBeGreaterThan(0);
    expect(mails.every((f) => /^\d{4}-\d{2}-\d{2}T[\d-]+Z-\d{8}-email\.[\w.-]+\.eml$/.test(f))).toBe(true);
    const eml = await readFile(join(dir, 'mail', mails.at(-1)!), 'utf8');
    expect(eml).toContain('To: file@example.com');
    // The development files keep the outbox id and template for whoever reads them.
    expect(eml).toMatch(/^X-Template: email\.verifica$/m);
    expect(eml).toMatch(/^Auto-Submitted: auto-generated$/m);
    const [sms] = await readdir(join(dir, 'sms'));
    expect(await readFile(join(dir, 'sms', sms!), 'utf8')).toContain('123456');
  });
});
