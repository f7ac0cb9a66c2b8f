import { existsSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionModelSchema } from '@portale/shared/actions';
import { actions, institutes, schoolSites } from '../src/db/schema/index.ts';
import { FileSweeper, sweepOrphanFiles } from '../src/lib/file-sweep.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp } from './http-client.ts';

const PDF = Buffer.from('%PDF-1.4\n% prova\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n', 'latin1');
const HOUR = 3_600_000;

/**
 * The sweep of stored files no row names (decision 030): the files of rows a cascade deleted go once
 * older than the grace period; a fresh file (an upload whose row is not committed yet) stays.
 */
describe('sweep of orphan stored files', () => {
  let t: TestApp;
  const clients = new Map<string, ApiClient>();
  const as = (email: string) => clients.get(email)!;
  const path = (key: string) => join(t.env.FILE_STORE_DIR, key.slice(0, 2), key);
  /** Makes a stored file look written `ms` ago. */
  const age = (key: string, ms: number) => {
    const then = new Date(Date.now() - ms);
    utimesSync(path(key), then, then);
  };

  beforeAll(async () => {
    t = await buildTestApp();
    for (const email of ['superadmin@demo.test', 'sylla@demo.test', 'dirigente@demo.test']) {
      const client = new ApiClient(t, nextIp());
      expect((await client.login(email)).statusCode).toBe(200);
      clients.set(email, client);
    }
  }, 120_000);
  afterAll(() => t.close());

  it('removes the evidence file of an action deleted with its plesso, keeps a fresh in-flight file and the files rows still name', async () => {
    const db = t.database.db;
    const [own] = await db
      .select({ id: institutes.id })
      .from(institutes)
      .where(eq(institutes.ministryCode, 'RMIC8AB00X'));
    const [site] = await db
      .insert(schoolSites)
      .values({
        ministryCode: 'SWPL000001',
        instituteId: own!.id,
        name: 'Plesso da chiudere',
        schoolLevel: 'primaria',
        typeLabel: 'Scuola primaria',
        municipalityCode: 'H501',
        municipalityName: 'Roma',
        province: 'RM',
        region: 'Lazio',
        participating: true,
      })
      .returning({ id: schoolSites.id });
    const model = ActionModelSchema.parse(
      (
        await as('superadmin@demo.test').post('/api/action-models', {
          title: 'Verbale del plesso',
          category: 'Formazione',
          defaultDurationDays: 30,
          evidence: 'file',
          target: 'plesso',
        })
      ).json(),
    );
    expect(
      (
        await as('sylla@demo.test').post('/api/actions/bulk', {
          modelId: model.id,
          targetIds: [site!.id],
          expectedCount: 1,
        })
      ).statusCode,
    ).toBe(200);
    const [action] = await db
      .select({ id: actions.id })
      .from(actions)
      .where(eq(actions.schoolSiteId, site!.id));
    const principal = as('dirigente@demo.test');
    expect(
      (await principal.post(`/api/actions/${action!.id}/transition`, { to: 'in_corso' })).statusCode,
    ).toBe(200);
    const uploaded = await principal.send(
      'POST',
      `/api/actions/${action!.id}/evidence?filename=verbale.pdf`,
      { payload: PDF, headers: { 'content-type': 'application/pdf' } },
    );
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const [{ key: orphan } = { key: '' }] = (
      (await db.execute(
        sql`select evidence_file_key as key from actions where id = ${action!.id}`,
      )) as unknown as { rows: { key: string }[] }
    ).rows;
    expect(existsSync(path(orphan))).toBe(true);

    // A staff document: its row stays, so its (old) file stays.
    const doc = await as('sylla@demo.test').send('POST', '/api/documents?title=Guida&category=guide', {
      payload: PDF,
      headers: { 'content-type': 'application/pdf' },
    });
    expect(doc.statusCode, doc.body).toBe(201);
    const [{ key: kept } = { key: '' }] = (
      (await db.execute(
        sql`select file_key as key from public_documents where id = ${doc.json().id}`,
      )) as unknown as { rows: { key: string }[] }
    ).rows;

    // The plesso is deleted: its action goes with it (ON DELETE CASCADE), the file stays behind.
    await db.delete(schoolSites).where(eq(schoolSites.id, site!.id));
    expect(await db.select().from(actions).where(eq(actions.id, action!.id))).toHaveLength(0);
    expect(existsSync(path(orphan))).toBe(true);

    // An upload still arriving (its row not committed yet): a fresh file no row names.
    const inFlight = await t.app.files.put(Readable.from([PDF]), {
      maxBytes: 10_000,
      tooLarge: () => new Error('troppo grande'),
    });
    age(orphan, 3 * HOUR);
    age(kept, 3 * HOUR);

    const result = await sweepOrphanFiles(db, t.app.files, { graceMs: 2 * HOUR });
    expect(result).toMatchObject({ removed: 1, recent: 1 });
    expect(existsSync(path(orphan))).toBe(false);
    expect(existsSync(path(inFlight.key))).toBe(true);
    expect(existsSync(path(kept))).toBe(true);
    expect((await as('sylla@demo.test').get(`/api/documents/${doc.json().id}/file`)).statusCode).toBe(200);

    // Once past the grace period the unclaimed upload goes too (run by the API's periodic sweeper).
    age(inFlight.key, 3 * HOUR);
    const sweeper = new FileSweeper(db, t.app.files, {
      intervalMs: 60_000,
      graceMs: 2 * HOUR,
      log: t.app.log,
    });
    await sweeper.runOnce();
    await sweeper.stop();
    expect(existsSync(path(inFlight.key))).toBe(false);
    expect(existsSync(path(kept))).toBe(true);
  }, 60_000);
});
