import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.ts';
import { outbox } from '../src/db/schema/index.ts';
import { createMailTransport, createSmsTransport } from '../src/modules/messages/message-transports.ts';
import { enqueueMessage } from '../src/modules/messages/outbox.repository.ts';
import { seedMessageTemplates } from '../src/seed/message-templates.ts';
import { OutboxWorker } from '../src/modules/messages/outbox.worker.ts';
import { freePort, freshDatabase, HttpClient, startApi, type ApiProcess } from './api-process.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';

const WRITERS = 6;

interface Stored {
  marker: string;
  outbox_id: number | null;
  outbox_found: boolean;
  outbox_has_marker: boolean;
}

/** Every contact message of the run, with the staff notice queued in its transaction. */
const STORED_SQL = `
  select substring(m.message from 'faults-[0-9]+-[0-9]+') as marker, m.outbox_id, o.id is not null as outbox_found,
         coalesce(position(substring(m.message from 'faults-[0-9]+-[0-9]+') in o.text_body) > 0, false) as outbox_has_marker
  from contact_messages m left join outbox o on o.id = m.outbox_id`;
const ORPHAN_NOTICES_SQL = `
  select count(*)::int as n from outbox o
  where o.template_key = 'email.contatto-staff' and not exists (select 1 from contact_messages m where m.outbox_id = o.id)`;

/**
 * Sends contact messages from WRITERS loops until `stop()`; records which ones were acknowledged
 * (2xx received) and which were in flight when the connection broke.
 */
function writeStream(api: () => string) {
  const acked = new Set<string>();
  const unknown = new Set<string>();
  let running = true;
  const loops = Array.from({ length: WRITERS }, async (_, w) => {
    let n = 0;
    while (running) {
      const c = new HttpClient(api());
      try {
        await c.send('HEAD', '/sanctum/csrf-cookie');
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      while (running) {
        const marker = `faults-${w}-${(n += 1)}`;
        const body = {
          name: 'Prova Guasti',
          email: 'guasti@example.it',
          topic: 'altro',
          message: `Messaggio ${marker} durante un arresto improvviso dell'API.`,
          privacyAccepted: true,
        };
        try {
          const res = await c.send('POST', '/api/public/contact', body);
          if (res.status >= 200 && res.status < 300) acked.add(marker);
          else throw new Error(`unexpected ${res.status} ${JSON.stringify(res.json)}`);
        } catch (error) {
          if ((error as Error).message.startsWith('unexpected')) throw error;
          unknown.add(marker);
          break;
        }
      }
    }
  });
  return {
    acked,
    unknown,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function waitForAcks(acked: Set<string>, count: number) {
  const deadline = Date.now() + 60_000;
  while (acked.size < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

function checkStored(stored: Stored[], orphans: number, acked: Set<string>, unknown: Set<string>) {
  const markers = new Set(stored.map((s) => s.marker));
  // Every acknowledged write is there …
  expect([...acked].filter((m) => !markers.has(m))).toEqual([]);
  // … only writes the client sent are there (an unacknowledged one may have committed) …
  expect([...markers].filter((m) => !acked.has(m) && !unknown.has(m))).toEqual([]);
  // … and none is half-written: each message has the staff notice of its transaction, and back.
  expect(stored.filter((s) => s.outbox_id === null || !s.outbox_found || !s.outbox_has_marker)).toEqual([]);
  expect(orphans).toBe(0);
}

const kinds = [
  { name: 'embedded PGlite (file-backed)', kind: 'pglite' as const, skip: false },
  { name: 'PostgreSQL', kind: 'postgres' as const, skip: !process.env.DATABASE_URL },
];

for (const { name, kind, skip } of kinds) {
  describe.skipIf(skip)(`SIGKILL during a stream of writes, then restart: ${name}`, () => {
    let dir: string;
    let database: Awaited<ReturnType<typeof freshDatabase>> | undefined;
    let env: Record<string, string>;
    let api: ApiProcess | undefined;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'portale-faults-'));
      database = kind === 'postgres' ? await freshDatabase('portale_faults') : undefined;
      env = {
        ...(database ? { DATABASE_URL: database.url } : { PGLITE_DIR: join(dir, 'pglite') }),
        MAIL_DIR: join(dir, 'mail'),
        SMS_DIR: join(dir, 'sms'),
        CONTACT_RATE_LIMIT_MAX: '100000',
        GLOBAL_CONTACT_MAX_PER_HOUR: '100000',
        PORT: String(await freePort()),
      };
    }, 60_000);
    afterAll(async () => {
      await api?.kill();
      await database?.drop();
      await rm(dir, { recursive: true, force: true });
    }, 60_000);

    it('keeps every acknowledged write, whole, and is ready again quickly', async () => {
      const first = await startApi(env);
      api = first;
      const stream = writeStream(() => first.url);
      await waitForAcks(stream.acked, 40);
      await first.kill();
      await stream.stop();
      expect(stream.acked.size).toBeGreaterThanOrEqual(40);

      // The same port and data: what a supervisor restarting the process does.
      const restarted = await startApi(env);
      api = restarted;
      console.log(
        `${name}: ${stream.acked.size} writes acknowledged before SIGKILL, ${stream.unknown.size} in flight; ` +
          `first start ready in ${Math.round(first.readyMs)} ms, restart after SIGKILL ready in ${Math.round(restarted.readyMs)} ms`,
      );
      const again = new HttpClient(restarted.url);
      await again.send('HEAD', '/sanctum/csrf-cookie');
      const after = await again.send('POST', '/api/public/contact', {
        name: 'Prova Guasti',
        email: 'guasti@example.it',
        topic: 'altro',
        message: 'Messaggio faults-99-1 dopo il riavvio.',
        privacyAccepted: true,
      });
      expect(after.status).toBe(202);
      stream.acked.add('faults-99-1');

      let stored: Stored[];
      let orphans: number;
      if (kind === 'postgres') {
        const db = await openDatabase({ databaseUrl: database!.url, pgliteDir: '' });
        stored = ((await db.db.execute(sql.raw(STORED_SQL))) as unknown as { rows: Stored[] }).rows;
        orphans = ((await db.db.execute(sql.raw(ORPHAN_NOTICES_SQL))) as unknown as { rows: { n: number }[] })
          .rows[0]!.n;
        await db.close();
      } else {
        // The embedded database belongs to one process: read it once the API has stopped.
        await restarted.stop();
        const db = await openDatabase({ pgliteDir: env.PGLITE_DIR! });
        stored = ((await db.db.execute(sql.raw(STORED_SQL))) as unknown as { rows: Stored[] }).rows;
        orphans = ((await db.db.execute(sql.raw(ORPHAN_NOTICES_SQL))) as unknown as { rows: { n: number }[] })
          .rows[0]!.n;
        await db.close();
      }
      checkStored(stored, orphans, stream.acked, stream.unknown);
    }, 240_000);
  });
}

describe('an SMTP server that is down, then comes back', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await buildTestApp();
    await seedMessageTemplates(t.database.db);
    dir = await mkdtemp(join(tmpdir(), 'portale-smtp-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('delivers every outbox message exactly once, with two workers retrying side by side', async () => {
    const port = await freePort();
    const received: string[] = [];
    const db = (t.database as Database).db;
    const worker = () =>
      new OutboxWorker({
        db,
        clock: t.clock,
        mail: createMailTransport({
          smtpUrl: `smtp://127.0.0.1:${port}`,
          from: 'Portale <noreply@example.test>',
          mailDir: join(dir, 'mail'),
        }),
        sms: createSmsTransport({ provider: 'file', smsDir: join(dir, 'sms') }),
        log: pino({ level: 'silent' }),
        pollMs: 50,
        maxAttempts: 12,
        batchSize: 10,
      });
    const workers = [worker(), worker()];
    const total = 30;
    for (let i = 0; i < total; i += 1) {
      await enqueueMessage(db, {
        templateKey: 'email.verifica',
        recipient: `utente${i}@example.com`,
        data: { firstName: `Utente${i}`, link: `https://portale.example/v?token=${i}` },
        now: t.clock.now(),
      });
    }
    // Down: nothing listens on the port. Every attempt fails and is kept for a retry.
    const runAll = async () =>
      (await Promise.all(workers.map((w) => w.runOnce()))).reduce((sum, n) => sum + n, 0);
    for (let i = 0; i < 3; i += 1) expect(await runAll()).toBe(0);
    const pending = await db
      .select()
      .from(outbox)
      .where(sql`${outbox.status} = 'pending'`);
    expect(pending).toHaveLength(total);
    expect(new Set(pending.map((r) => r.attempts))).toEqual(new Set([1]));

    // Back up on the same port.
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let text = '';
        stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push(text);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
    try {
      t.clock.advance(31_000);
      let delivered = 0;
      for (let round = 0; round < 10 && delivered < total; round += 1) delivered += await runAll();
      expect(delivered).toBe(total);
      expect(await runAll()).toBe(0);
      t.clock.advance(3_600_000);
      expect(await runAll()).toBe(0);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
    const recipients = received.map((m) => /^To: (.+)$/m.exec(m)?.[1]?.trim());
    expect(recipients).toHaveLength(total);
    expect(new Set(recipients).size).toBe(total);
    const rows = await db.select().from(outbox);
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  }, 60_000);
});
