import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdhesionFunnelSchema,
  AdhesionPanelListSchema,
  ReminderPreviewSchema,
  ReminderResultSchema,
} from '@portale/shared/adhesions';
import { ADHESION_STATES } from '@portale/shared/registry';
import { DEMO_ACCOUNTS } from '../../seed/seed.ts';
import { withTransaction } from '../../db/transaction.ts';
import { buildTestApp, type TestApp, sqlRows } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import { transitionAdhesion } from '../adhesions/adhesion-state.repository.ts';
import { romeDay } from './adhesion-panel.service.ts';

let t: TestApp;
const clients = new Map<string, ApiClient>();
const as = (email: string) => clients.get(email)!;
const staff = () => as('sylla@demo.test');
const DAY = 86_400_000;

async function scalar(query: ReturnType<typeof sql>): Promise<number> {
  return Number((await sqlRows<{ n: number | string }>(t, query))[0]!.n);
}

/** Moves an institute along the state machine as the real flows do (dated transitions). */
async function moveTo(instituteId: number, path: (typeof ADHESION_STATES)[number][]) {
  for (const to of path) {
    await withTransaction(t.database.db, (tx) =>
      transitionAdhesion(tx, { instituteId, to, actorUserId: null, at: t.clock.now() }),
    );
  }
}

/** Institutes of Pavia with no adhesion yet, to enrol in the tests; the principal of the first one is the demo teacher. */
let fresh: number[] = [];
/** PV institutes already `iscritto` before the tests (the demo principal's), with and without contacts. */
let baseIscritto = 0;
let baseWithContacts = 0;

beforeAll(async () => {
  t = await buildTestApp({}, { registry: 'sample' });
  for (const account of DEMO_ACCOUNTS) {
    const client = new ApiClient(t, nextIp());
    expect((await client.login(account.email)).statusCode, account.email).toBe(200);
    clients.set(account.email, client);
  }
  baseIscritto = await scalar(
    sql`select count(*) as n from institutes where province = 'PV' and adhesion_state = 'iscritto'`,
  );
  baseWithContacts = await scalar(
    sql`select count(*) as n from institutes where province = 'PV' and adhesion_state = 'iscritto' and (principal_user_id is not null or first_contact_user_id is not null)`,
  );
  fresh = (
    await sqlRows<{ id: string }>(
      t,
      sql`select id from institutes where province = 'PV' and adhesion_state = 'nessuna' order by id limit 4`,
    )
  ).map((r) => Number(r.id));
  const teacher = await scalar(sql`select id as n from users where email = 'referente@demo.test'`);
  await t.database.db.execute(
    sql`update institutes set first_contact_user_id = ${teacher} where id in (${fresh[0]}, ${fresh[1]})`,
  );
  await moveTo(fresh[0]!, ['iscritto']);
  await moveTo(fresh[1]!, ['iscritto']);
  await moveTo(fresh[2]!, ['iscritto']); // no contacts: cannot be reminded
  t.clock.advance(20 * DAY);
  await moveTo(fresh[3]!, ['iscritto', 'adesione_firmata', 'attivo']);
}, 120_000);
afterAll(() => t.close());

describe('who may use the adhesions panel', () => {
  const READERS = new Set([
    'superadmin@demo.test',
    'sylla@demo.test',
    'cromos@demo.test',
    'utenti@demo.test',
  ]);
  for (const url of ['/api/adhesions/funnel', '/api/adhesions', '/api/adhesions/export?format=csv']) {
    it(`${url}: staff and user.index 200, guest 401, others 403`, async () => {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
      for (const account of DEMO_ACCOUNTS) {
        expect((await as(account.email).get(url)).statusCode, account.email).toBe(
          READERS.has(account.email) ? 200 : 403,
        );
      }
    });
  }

  it('reminders are for staff only: user.index reads but may not send', async () => {
    const url = '/api/adhesions/reminders/preview?adhesionState=iscritto';
    expect((await as('utenti@demo.test').get(url)).statusCode).toBe(403);
    expect(
      (await as('utenti@demo.test').post('/api/adhesions/reminders', { adhesionState: 'iscritto' }))
        .statusCode,
    ).toBe(403);
    expect((await as('dirigente@demo.test').get(url)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });
});

describe('funnel and list', () => {
  it('counts every state like SQL does, filters included', async () => {
    const body = AdhesionFunnelSchema.parse((await staff().get('/api/adhesions/funnel')).json());
    expect(body.states.map((s) => s.state)).toEqual([...ADHESION_STATES]);
    for (const { state, count } of body.states) {
      expect(count, state).toBe(
        await scalar(sql`select count(*) as n from institutes where adhesion_state = ${state}`),
      );
    }
    expect(body.total).toBe(await scalar(sql`select count(*) as n from institutes`));
    const pv = AdhesionFunnelSchema.parse((await staff().get('/api/adhesions/funnel?province=PV')).json());
    expect(pv.states.find((s) => s.state === 'iscritto')!.count).toBe(
      await scalar(
        sql`select count(*) as n from institutes where province = 'PV' and adhesion_state = 'iscritto'`,
      ),
    );
    const stuck = AdhesionFunnelSchema.parse(
      (await staff().get('/api/adhesions/funnel?province=PV&minDaysInState=15')).json(),
    );
    expect(stuck.states.find((s) => s.state === 'iscritto')!.count).toBe(
      await scalar(
        sql`select count(*) as n from institutes where province = 'PV' and adhesion_state = 'iscritto' and adhesion_state_changed_at <= ${new Date(t.clock.now().getTime() - 15 * DAY).toISOString()}::timestamptz`,
      ),
    );
    expect(stuck.states.find((s) => s.state === 'iscritto')!.count).toBeGreaterThanOrEqual(3);
    expect(stuck.states.find((s) => s.state === 'attivo')!.count).toBe(0);
  });

  it('lists only institutes in the programme unless a state is chosen, longest waiting first', async () => {
    const body = AdhesionPanelListSchema.parse((await staff().get('/api/adhesions?province=PV')).json());
    expect(body.total).toBe(
      await scalar(
        sql`select count(*) as n from institutes where province = 'PV' and adhesion_state <> 'nessuna'`,
      ),
    );
    expect(body.items.every((i) => i.adhesionState !== 'nessuna')).toBe(true);
    expect(body.items.at(-1)!.id).toBe(fresh[3]);
    const first = body.items.find((i) => i.id === fresh[0])!;
    expect(first.firstContact?.email).toBe('referente@demo.test');
    const none = AdhesionPanelListSchema.parse(
      (await staff().get('/api/adhesions?province=PV&adhesionState=nessuna&pageSize=25')).json(),
    );
    expect(none.total).toBe(
      await scalar(
        sql`select count(*) as n from institutes where province = 'PV' and adhesion_state = 'nessuna'`,
      ),
    );
  });

  it('refuses unknown filter values with Italian messages and exports what it shows', async () => {
    const bad = await staff().get('/api/adhesions?adhesionState=boh&minDaysInState=0');
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(
      expect.arrayContaining(['adhesionState', 'minDaysInState']),
    );
    expect((await staff().get('/api/adhesions/funnel?region=Atlantide')).statusCode).toBe(422);
    const csv = await staff().get('/api/adhesions/export?format=csv&province=PV&adhesionState=iscritto');
    expect(csv.statusCode).toBe(200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toContain('Codice meccanografico;Denominazione');
    expect(lines).toHaveLength(1 + baseIscritto + 3);
  });
});

describe('reminders', () => {
  it('previews, sends once a day per institute through the outbox, and audits', async () => {
    const query = 'adhesionState=iscritto&province=PV';
    const preview = ReminderPreviewSchema.parse(
      (await staff().get(`/api/adhesions/reminders/preview?${query}`)).json(),
    );
    expect(preview).toEqual({
      eligible: baseWithContacts + 2,
      remindedToday: 0,
      withoutContacts: baseIscritto - baseWithContacts + 1,
    });
    const outboxBefore = await scalar(
      sql`select count(*) as n from outbox where template_key = 'email.sollecito-adesione'`,
    );
    const sentRes = await staff().post('/api/adhesions/reminders', {
      adhesionState: 'iscritto',
      province: 'PV',
    });
    expect(sentRes.statusCode, sentRes.body).toBe(200);
    const sent = ReminderResultSchema.parse(sentRes.json());
    // Our two institutes have only a first contact: one e-mail each (the demo institute's people add theirs).
    expect(sent).toMatchObject({
      institutes: baseWithContacts + 2,
      remindedToday: 0,
      withoutContacts: baseIscritto - baseWithContacts + 1,
    });
    const messages = sent.messages;
    expect(messages).toBeGreaterThanOrEqual(baseWithContacts + 2);
    expect(
      await scalar(sql`select count(*) as n from outbox where template_key = 'email.sollecito-adesione'`),
    ).toBe(outboxBefore + messages);
    const sentTo = await sqlRows<{ recipient: string; text_body: string }>(
      t,
      sql`select recipient, text_body from outbox where template_key = 'email.sollecito-adesione'`,
    );
    expect(sentTo.filter((m) => m.recipient === 'referente@demo.test')).toHaveLength(2);
    expect(sentTo[0]!.text_body).toContain('/iscrizioni/adesione-formale');
    expect(
      await scalar(
        sql`select count(*) as n from adhesion_reminders where sent_on = ${romeDay(t.clock.now())}::date`,
      ),
    ).toBe(baseWithContacts + 2);
    expect(
      await scalar(sql`select count(*) as n from audit_log where action = 'adhesion.reminders_sent'`),
    ).toBe(1);

    // A second click the same day sends nothing, and two concurrent clicks never send twice.
    const again = await Promise.all(
      [1, 2].map(() =>
        staff().post('/api/adhesions/reminders', { adhesionState: 'iscritto', province: 'PV' }),
      ),
    );
    for (const res of again)
      expect(ReminderResultSchema.parse(res.json())).toMatchObject({
        institutes: 0,
        messages: 0,
        remindedToday: baseWithContacts + 2,
      });
    expect(
      await scalar(sql`select count(*) as n from outbox where template_key = 'email.sollecito-adesione'`),
    ).toBe(outboxBefore + messages);
    const list = AdhesionPanelListSchema.parse(
      (await staff().get('/api/adhesions?province=PV&adhesionState=iscritto')).json(),
    );
    expect(list.items.filter((i) => i.lastReminderOn === romeDay(t.clock.now()))).toHaveLength(
      baseWithContacts + 2,
    );

    // The next day (Europe/Rome) they may be reminded again.
    t.clock.advance(DAY);
    expect(
      ReminderPreviewSchema.parse((await staff().get(`/api/adhesions/reminders/preview?${query}`)).json())
        .eligible,
    ).toBe(baseWithContacts + 2);
  });

  it('refuses a state that is not the school’s turn, with nothing written', async () => {
    const before = await scalar(sql`select count(*) as n from adhesion_reminders`);
    const res = await staff().post('/api/adhesions/reminders', { adhesionState: 'attivo' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.adhesionState[0]).toContain('Iscritto');
    expect((await staff().post('/api/adhesions/reminders', {})).statusCode).toBe(422);
    expect(await scalar(sql`select count(*) as n from adhesion_reminders`)).toBe(before);
  });
});

describe('withdrawal', () => {
  it('staff withdraw an active institute with a reason; the history, the audit and the e-mails follow', async () => {
    const url = `/api/institutes/${fresh[3]}/adhesion/withdrawal`;
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    expect((await guest.post(url, { reason: 'La scuola chiude.' })).statusCode).toBe(401);
    expect((await as('utenti@demo.test').post(url, { reason: 'Motivo sufficiente.' })).statusCode).toBe(403);
    expect((await as('dirigente@demo.test').post(url, { reason: 'Motivo sufficiente.' })).statusCode).toBe(
      403,
    );
    const short = await staff().post(url, { reason: 'no' });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors.reason[0]).toContain('almeno 10 caratteri');
    const res = await staff().post(url, { reason: 'La scuola non può più partecipare quest’anno.' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ adhesionState: 'ritirato' });
    const [row] = await sqlRows<{ to_state: string; note: string }>(
      t,
      sql`select to_state, note from institute_adhesion_transitions where institute_id = ${fresh[3]} order by id desc limit 1`,
    );
    expect(row).toEqual({ to_state: 'ritirato', note: 'La scuola non può più partecipare quest’anno.' });
    const again = await staff().post(url, { reason: 'Di nuovo, per errore.' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('Ritirato');
    expect(
      (
        await staff().post('/api/institutes/999999999/adhesion/withdrawal', {
          reason: 'Istituto inesistente.',
        })
      ).statusCode,
    ).toBe(404);
  });

  it('the principal may withdraw their own active institute, not another one', async () => {
    const principal = as('dirigente@demo.test');
    const me = await scalar(sql`select id as n from users where email = 'dirigente@demo.test'`);
    const own = await scalar(sql`select id as n from institutes where principal_user_id = ${me}`);
    await t.database.db.execute(sql`update institutes set adhesion_state = 'attivo' where id = ${own}`);
    expect(
      (
        await principal.post(`/api/institutes/${fresh[0]}/adhesion/withdrawal`, {
          reason: 'Non è il mio istituto.',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await as('referente@demo.test').post(`/api/institutes/${own}/adhesion/withdrawal`, {
          reason: 'Il referente non può.',
        })
      ).statusCode,
    ).toBe(403);
    const res = await principal.post(`/api/institutes/${own}/adhesion/withdrawal`, {
      reason: 'Il collegio docenti ha deciso di non partecipare.',
    });
    expect(res.statusCode).toBe(200);
  });
});
