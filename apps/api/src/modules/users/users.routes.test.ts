import ExcelJS from 'exceljs';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditEntrySchema } from '@portale/shared/registry';
import { UserActionResultSchema, UserDetailSchema, UserListResponseSchema } from '@portale/shared/users';
import { auditLog, outbox, users } from '../../db/schema/index.ts';
import { DEMO_ACCOUNTS } from '../../seed/seed.ts';
import { seedMessageTemplates } from '../../seed/message-templates.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp, guestClient } from '../../../test/http-client.ts';

let t: TestApp;
const clients = new Map<string, ApiClient>();
const as = (email: string) => clients.get(email)!;
const admin = () => as('superadmin@demo.test');
const cromos = () => as('cromos@demo.test');
const ids = new Map<string, number>();
const idOf = (email: string) => ids.get(email)!;

/** Who reads users (seed §6 `/portale/utenti`) and who manages them (permissions.ts). */
const READERS = new Set(['superadmin@demo.test', 'cromos@demo.test', 'utenti@demo.test']);
const MANAGERS = new Set(['superadmin@demo.test', 'cromos@demo.test']);
const ACTIONS = [
  'suspend',
  'reactivate',
  'unlock',
  'mfa/reset',
  'force-password-change',
  'resend-verification',
];

async function loginClient(email: string, password?: string): Promise<ApiClient> {
  const client = new ApiClient(t, nextIp());
  const res = await client.login(email, password);
  expect(res.statusCode, `${email}: ${res.body}`).toBe(200);
  return client;
}

async function auditOf(userId: number, action: string) {
  return t.database.db
    .select()
    .from(auditLog)
    .where(
      and(eq(auditLog.entity, 'user'), eq(auditLog.entityId, String(userId)), eq(auditLog.action, action)),
    )
    .orderBy(desc(auditLog.id));
}

async function newestMail(recipient: string, templateKey: string) {
  const [row] = await t.database.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.recipient, recipient), eq(outbox.templateKey, templateKey)))
    .orderBy(desc(outbox.id))
    .limit(1);
  return row;
}

let created = 0;
/** Creates a user through the API (as the super-admin) and returns its detail. */
async function createUser(roles: string[] = ['detector'], extra: Record<string, unknown> = {}) {
  created += 1;
  const res = await admin().post('/api/users', {
    firstName: 'Nuovo',
    lastName: `Utente ${created}`,
    email: `nuovo${created}@esempio.it`,
    roles,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return UserDetailSchema.parse(res.json());
}

/** Chooses a password with the invitation link and logs in. */
async function acceptInvitation(email: string): Promise<ApiClient> {
  const mail = await newestMail(email, 'email.invito');
  const token = /token=([A-Za-z0-9_-]+)/.exec(mail!.textBody)![1]!;
  const client = await guestClient(t);
  const password = 'Quaderno-Girasole-47';
  const reset = await client.post('/api/auth/reset-password', {
    token,
    password,
    password_confirmation: password,
  });
  expect(reset.statusCode, reset.body).toBe(200);
  return loginClient(email, password);
}

beforeAll(async () => {
  t = await buildTestApp();
  await seedMessageTemplates(t.database.db);
  for (const account of DEMO_ACCOUNTS) {
    clients.set(account.email, await loginClient(account.email));
    const [row] = await t.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, account.email));
    ids.set(account.email, row!.id);
  }
}, 120_000);
afterAll(() => t.close());

describe('who may read users', () => {
  const reads = () => [
    '/api/users',
    '/api/users?role=teacher&sort=-email',
    '/api/users/export?format=csv',
    `/api/users/${idOf('insegnante@demo.test')}`,
    `/api/audit?entity=user&entityId=${idOf('insegnante@demo.test')}`,
  ];
  // The audit of a user needs `read:user` too: Sylla staff read the registry's audit, not users'.
  it('super-admin, cromos and user.index 200; guest 401; every other account 403', async () => {
    for (const url of reads()) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
      for (const account of DEMO_ACCOUNTS) {
        const res = await as(account.email).get(url);
        expect(res.statusCode, `${account.email} ${url}`).toBe(READERS.has(account.email) ? 200 : 403);
      }
    }
  });

  it("a user without a grant reads neither someone else's record nor their own", async () => {
    const teacher = as('insegnante@demo.test');
    expect((await teacher.get(`/api/users/${idOf('sylla@demo.test')}`)).statusCode).toBe(403);
    expect((await teacher.get(`/api/users/${idOf('insegnante@demo.test')}`)).statusCode).toBe(403);
    expect((await as('sylla@demo.test').get(`/api/users/${idOf('cromos@demo.test')}`)).statusCode).toBe(403);
  });

  it('is 404 in Italian for an unknown or malformed id, on reads, edits and actions', async () => {
    for (const id of ['999999999', 'abc', '0', '-1', '1.5', '99999999999999999999']) {
      for (const [method, url] of [
        ['GET', `/api/users/${id}`],
        ['PATCH', `/api/users/${id}`],
        ['POST', `/api/users/${id}/suspend`],
        ['POST', `/api/users/${id}/mfa/reset`],
      ] as const) {
        const res = await admin().send(
          method,
          url,
          method === 'PATCH' ? { payload: { firstName: 'Mario' } } : {},
        );
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json<{ message: string }>().message, url).toMatch(/non (trovato|esiste)/);
      }
    }
  });
});

describe('how a user last logged in', () => {
  it('the staff page says how and when: e-mail and password, or with the TOTP code (CIE/SPID: identity tests)', async () => {
    const detail = async (email: string) =>
      UserDetailSchema.parse((await admin().get(`/api/users/${idOf(email)}`)).json()).lastLogin;
    expect(await detail('dirigente@demo.test')).toMatchObject({ method: 'password', acr: null });
    expect(await detail('superadmin@demo.test')).toMatchObject({ method: 'mfa', acr: null });
    expect((await detail('dirigente@demo.test'))?.at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });
});

describe('who may change users', () => {
  it('only super-admin and cromos: user.index and every other account get 403, a guest 401', async () => {
    const target = idOf('rilevatore@demo.test');
    const writes: [string, 'POST' | 'PATCH', Record<string, unknown> | undefined][] = [
      [
        '/api/users',
        'POST',
        { firstName: 'Ada', lastName: 'Rossi', email: 'ada.rossi@esempio.it', roles: ['detector'] },
      ],
      [`/api/users/${target}`, 'PATCH', { firstName: 'Roberta' }],
      ...ACTIONS.map((a) => [`/api/users/${target}/${a}`, 'POST', undefined] as [string, 'POST', undefined]),
    ];
    const anonymous = await guestClient(t);
    for (const [url, method, payload] of writes) {
      expect(
        (await anonymous.send(method, url, payload ? { payload } : {})).statusCode,
        `guest ${method} ${url}`,
      ).toBe(401);
      for (const account of DEMO_ACCOUNTS.filter((a) => !MANAGERS.has(a.email))) {
        const res = await as(account.email).send(method, url, payload ? { payload } : {});
        expect(res.statusCode, `${account.email} ${method} ${url}`).toBe(403);
      }
    }
    // Nothing was written by any refused call.
    expect(await t.database.db.select().from(users).where(eq(users.email, 'ada.rossi@esempio.it'))).toEqual(
      [],
    );
    expect(await auditOf(target, 'user.updated')).toEqual([]);
  });
});

describe('GET /api/users', () => {
  it('lists every user, sorted by name, with roles, direct permissions and login state', async () => {
    const body = UserListResponseSchema.parse(
      (await as('utenti@demo.test').get('/api/users?pageSize=50')).json(),
    );
    const count = (await t.database.db.execute(sql`select count(*)::int as n from users`)) as unknown as {
      rows: { n: number | string }[];
    };
    expect(body.total).toBe(Number(count.rows[0]!.n));
    const names = body.items.map((u) => `${u.lastName} ${u.firstName}`.toLowerCase());
    expect(names).toEqual([...names].sort());
    const ugo = body.items.find((u) => u.email === 'utenti@demo.test')!;
    expect(ugo).toMatchObject({
      roles: [],
      permissions: ['user.index'],
      status: 'active',
      locked: false,
      mfaEnrolled: false,
      emailVerified: true,
    });
    expect(body.items.find((u) => u.email === 'cromos@demo.test')).toMatchObject({
      roles: ['cromos'],
      mfaEnrolled: true,
    });
  });

  it('filters by role, permission and status, searches names and e-mail without accents or case', async () => {
    const byRole = UserListResponseSchema.parse((await admin().get('/api/users?role=teacher')).json());
    expect(byRole.items.map((u) => u.email).sort()).toEqual([
      'cambio-password@demo.test',
      'da-verificare@demo.test',
      'insegnante@demo.test',
    ]);
    const byPermission = UserListResponseSchema.parse(
      (await admin().get('/api/users?permission=user.index')).json(),
    );
    expect(byPermission.items.map((u) => u.email)).toEqual(['utenti@demo.test']);
    expect(
      UserListResponseSchema.parse((await admin().get('/api/users?status=suspended')).json()).total,
    ).toBe(0);
    const search = UserListResponseSchema.parse(
      (await admin().get('/api/users?q=AMMINISTRATRICE%20silv')).json(),
    );
    expect(search.items.map((u) => u.email)).toEqual(['superadmin@demo.test']);
    const byEmail = UserListResponseSchema.parse((await admin().get('/api/users?q=sylla@demo.test')).json());
    expect(byEmail.items[0]!.email).toBe('sylla@demo.test');
    const sorted = UserListResponseSchema.parse(
      (await admin().get('/api/users?sort=-email&pageSize=100')).json(),
    );
    const emails = sorted.items.map((u) => u.email);
    expect(emails).toEqual([...emails].sort().reverse());
  });

  it('answers bad input with a 422 in Italian or an empty page, never a 500', async () => {
    for (const query of [
      'role=capo',
      'permission=tutto',
      'status=cancellato',
      'locked=forse',
      'sort=passwordHash',
      'pageSize=1000',
      'page=0',
      `q=${'x'.repeat(10_000)}`,
    ]) {
      const res = await admin().get(`/api/users?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json<{ message: string }>().message, query).toMatch(/non sono validi/);
    }
    for (const query of ["q=' or 1=1 --", 'q=%25_%5C', 'page=9999']) {
      const res = await admin().get(`/api/users?${query}`);
      expect(res.statusCode, query).toBe(200);
      expect(res.json<{ items: unknown[] }>().items, query).toEqual([]);
    }
  });
});

describe('GET /api/users/export', () => {
  it('CSV: one row per user of the filter, the count announced in X-Total-Count', async () => {
    const res = await as('utenti@demo.test').get('/api/users/export?format=csv&role=teacher');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="utenti-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const total = UserListResponseSchema.parse((await admin().get('/api/users?role=teacher')).json()).total;
    expect(res.headers['x-total-count']).toBe(String(total));
    expect(res.body.startsWith('\uFEFFCognome;Nome;E-mail;Ruoli;')).toBe(true);
    const lines = res.body.trim().split('\r\n');
    expect(lines).toHaveLength(total + 1);
    expect(lines.some((l) => l.startsWith('Insegnante;Irene;insegnante@demo.test;Insegnante;'))).toBe(true);
  });

  it('XLSX: a real workbook with every user', async () => {
    const res = await admin().get('/api/users/export?format=xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Utenti')!;
    expect(sheet.rowCount - 1).toBe(Number(res.headers['x-total-count']));
    expect(sheet.getRow(1).getCell(3).value).toBe('E-mail');
  });
});

describe('POST /api/users', () => {
  it('creates the user, invites them by e-mail to choose a password, and audits it', async () => {
    const res = await cromos().post('/api/users', {
      firstName: ' Maria ',
      lastName: 'Bianchi',
      email: 'Maria.Bianchi@Esempio.IT',
      roles: ['detector', 'detector'],
      permissions: ['user.index'],
    });
    expect(res.statusCode, res.body).toBe(201);
    const user = UserDetailSchema.parse(res.json());
    expect(user).toMatchObject({
      firstName: 'Maria',
      lastName: 'Bianchi',
      email: 'maria.bianchi@esempio.it',
      roles: ['detector'],
      permissions: ['user.index'],
      status: 'active',
      emailVerified: false,
      mfaEnrolled: false,
    });
    const mail = await newestMail('maria.bianchi@esempio.it', 'email.invito');
    expect(mail!.textBody).toContain('Chiara Cromos ha creato per te un account');
    expect(mail!.textBody).toContain('Rilevatore, Consultazione degli elenchi');
    const [audit] = await auditOf(user.id, 'user.created');
    expect(audit).toMatchObject({
      actorUserId: idOf('cromos@demo.test'),
      after: { email: 'maria.bianchi@esempio.it', roles: ['detector'], permissions: ['user.index'] },
    });
    // The invitation works once: the new user chooses a password and logs in.
    const maria = await acceptInvitation('maria.bianchi@esempio.it');
    expect((await maria.get('/api/auth/me')).json<{ user: { roles: string[] } }>().user.roles).toEqual([
      'detector',
    ]);
  });

  it('refuses an address already used, whatever its case, on the field (422)', async () => {
    const res = await admin().post('/api/users', {
      firstName: 'Irene',
      lastName: 'Doppia',
      email: 'INSEGNANTE@demo.test',
      roles: ['teacher'],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      errors: { email: ['Esiste già un utente con questo indirizzo e-mail.'] },
    });
  });

  it('answers bad bodies with per-field Italian messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ lastName: 'Rossi', email: 'a@b.it', roles: ['teacher'] }, 'firstName'],
      [{ firstName: 'Ada', lastName: 'Rossi', email: 'non-una-mail', roles: ['teacher'] }, 'email'],
      [{ firstName: 'Ada', lastName: 'Rossi', email: 'a@b.it', roles: ['imperatore'] }, 'roles.0'],
      [{ firstName: 'Ada', lastName: 'Rossi', email: 'a@b.it', roles: [] }, 'roles'],
      [{ firstName: 'Ada', lastName: 'Rossi', email: 'a@b.it', roles: 'teacher' }, 'roles'],
      [{ firstName: 'x'.repeat(101), lastName: 'Rossi', email: 'a@b.it', roles: ['teacher'] }, 'firstName'],
    ];
    for (const [payload, field] of cases) {
      const res = await admin().post('/api/users', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(res.json<{ errors: object }>().errors), JSON.stringify(payload)).toContain(field);
    }
    // A field the contract does not declare is refused as such (400 unknown_field), never dropped.
    const extra = await admin().post('/api/users', {
      firstName: 'Ada',
      lastName: 'Rossi',
      email: 'a@b.it',
      roles: ['teacher'],
      passwordHash: 'x',
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toMatchObject({
      code: 'unknown_field',
      message: 'Campo non previsto: «passwordHash».',
    });
  });
});

describe('PATCH /api/users/:userId', () => {
  it('changes names, roles and direct permissions, auditing before and after', async () => {
    const user = await createUser(['teacher']);
    const res = await cromos().send('PATCH', `/api/users/${user.id}`, {
      payload: { firstName: 'Giulia', roles: ['sylla', 'teacher'], permissions: ['user.index'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(UserDetailSchema.parse(res.json())).toMatchObject({
      firstName: 'Giulia',
      roles: ['sylla', 'teacher'],
      permissions: ['user.index'],
    });
    const [audit] = await auditOf(user.id, 'user.updated');
    expect(audit).toMatchObject({
      before: { firstName: 'Nuovo', roles: ['teacher'], permissions: [] },
      after: { firstName: 'Giulia', roles: ['sylla', 'teacher'], permissions: ['user.index'] },
    });
    // Read back through the audit endpoint, as user.index does.
    const entries = (await as('utenti@demo.test').get(`/api/audit?entity=user&entityId=${user.id}`)).json<{
      items: unknown[];
    }>();
    const parsed = entries.items.map((e) => AuditEntrySchema.parse(e));
    expect(parsed[0]).toMatchObject({ action: 'user.updated', actor: { email: 'cromos@demo.test' } });
    expect(parsed.map((e) => e.action)).toContain('user.created');
    // Nothing changed: no audit row.
    expect(
      (
        await cromos().send('PATCH', `/api/users/${user.id}`, {
          payload: { firstName: 'Giulia', roles: ['teacher', 'sylla'] },
        })
      ).statusCode,
    ).toBe(200);
    expect(await auditOf(user.id, 'user.updated')).toHaveLength(1);
  });

  it('corrects a mistyped e-mail: unique, verified again, the old address told, audited (decision 041)', async () => {
    const user = await createUser(['teacher']);
    // Taken by someone else (any case), or not an address: 422 on the field, nothing changes.
    const taken = await admin().send('PATCH', `/api/users/${user.id}`, {
      payload: { email: 'INSEGNANTE@demo.test' },
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.email).toEqual(['Esiste già un utente con questo indirizzo e-mail.']);
    expect(
      (await admin().send('PATCH', `/api/users/${user.id}`, { payload: { email: 'non-un-indirizzo' } }))
        .statusCode,
    ).toBe(422);
    // user.index reads but does not edit; a guest is 401.
    expect(
      (
        await as('utenti@demo.test').send('PATCH', `/api/users/${user.id}`, {
          payload: { email: 'x@esempio.it' },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await (
          await guestClient(t)
        ).send('PATCH', `/api/users/${user.id}`, { payload: { email: 'x@esempio.it' } })
      ).statusCode,
    ).toBe(401);
    const res = await cromos().send('PATCH', `/api/users/${user.id}`, {
      payload: { email: ' Corretto.Indirizzo@Esempio.it ' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(UserDetailSchema.parse(res.json())).toMatchObject({
      email: 'corretto.indirizzo@esempio.it',
      emailVerifiedAt: null,
    });
    expect(await newestMail('corretto.indirizzo@esempio.it', 'email.verifica')).toBeDefined();
    const notice = await newestMail(user.email, 'email.indirizzo-cambiato');
    expect(notice!.textBody).toContain('corretto.indirizzo@esempio.it');
    const [audit] = await auditOf(user.id, 'user.updated');
    expect(audit).toMatchObject({
      before: { email: user.email },
      after: { email: 'corretto.indirizzo@esempio.it' },
    });
  });

  it('corrects a mobile number: E.164, verified again by SMS, the person told by e-mail, audited (decision 041)', async () => {
    const user = await createUser(['teacher']);
    const bad = await admin().send('PATCH', `/api/users/${user.id}`, { payload: { phone: '12' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.phone).toEqual(['Inserisci un numero di cellulare valido.']);
    expect(
      (
        await as('utenti@demo.test').send('PATCH', `/api/users/${user.id}`, {
          payload: { phone: '333 123 4567' },
        })
      ).statusCode,
    ).toBe(403);
    const res = await cromos().send('PATCH', `/api/users/${user.id}`, { payload: { phone: '333 123 4567' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(UserDetailSchema.parse(res.json())).toMatchObject({
      phone: '+393331234567',
      phoneVerifiedAt: null,
    });
    expect((await newestMail(user.email, 'email.cellulare-cambiato'))!.textBody).toContain(
      'Al prossimo accesso',
    );
    const [audit] = await auditOf(user.id, 'user.updated');
    expect(audit).toMatchObject({ after: { phone: '+393331234567' } });
    // No number before: no SMS. A second correction tells the old number by SMS, in Italian (decision 047).
    expect(await newestMail('+393331234567', 'sms.cellulare-cambiato')).toBeUndefined();
    const again = await cromos().send('PATCH', `/api/users/${user.id}`, {
      payload: { phone: '333 765 4321' },
    });
    expect(again.statusCode, again.body).toBe(200);
    const sms = await newestMail('+393331234567', 'sms.cellulare-cambiato');
    expect(sms).toMatchObject({ channel: 'sms' });
    expect(sms!.textBody).toMatch(
      /^Portale Scuole: il numero di cellulare del tuo account è stato cambiato dallo staff del portale in \+39 ••• ••• •321\./,
    );
    expect(sms!.textBody).not.toContain('7654321');
  });

  it('refuses unknown roles or permissions (422)', async () => {
    const id = idOf('insegnante@demo.test');
    // Issue 32: a name on one line, without control characters (it goes into e-mails and exports).
    for (const lastName of ['Rossi\r\nBcc: x@esempio.it', 'Ros\u0000si', 'Rossi\u202e']) {
      const res = await admin().send('PATCH', `/api/users/${id}`, { payload: { lastName } });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        errors: {
          lastName: ['Scrivi il nome su una sola riga, senza a capo, tabulazioni o caratteri di controllo.'],
        },
      });
    }
    for (const payload of [{ roles: ['re'] }, { permissions: ['user.delete'] }, { lastName: '' }]) {
      const res = await admin().send('PATCH', `/api/users/${id}`, { payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json<{ message: string }>().message).toMatch(/non sono validi/);
    }
  });

  it('never lets anyone change their own roles or permissions (403 self_access_change), names stay editable', async () => {
    const self = idOf('cromos@demo.test');
    const before = UserDetailSchema.parse((await admin().get(`/api/users/${self}`)).json());
    // Issue 32, defect 4: cromos gave itself Sylla's role and then decided substitutions.
    for (const payload of [
      { roles: ['cromos', 'sylla'] },
      { permissions: ['user.index'] },
      { roles: ['cromos'], permissions: ['user.index'] },
      { roles: ['sylla'] },
    ]) {
      const res = await cromos().send('PATCH', `/api/users/${self}`, { payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'self_access_change',
        message: 'Non puoi modificare i tuoi ruoli o i tuoi permessi: deve farlo un altro amministratore.',
      });
    }
    expect((await cromos().get('/api/substitutions')).statusCode).toBe(403);
    const after = UserDetailSchema.parse((await admin().get(`/api/users/${self}`)).json());
    expect({ roles: after.roles, permissions: after.permissions }).toEqual({
      roles: before.roles,
      permissions: before.permissions,
    });
    expect(await auditOf(self, 'user.updated')).toHaveLength(0);
    // The super-admin neither (another super-admin grants or removes).
    const admins = idOf('superadmin@demo.test');
    for (const payload of [
      { roles: ['super-admin', 'sylla'] },
      { roles: ['sylla'] },
      { roles: [], permissions: ['user.index'] },
    ]) {
      expect(
        (await admin().send('PATCH', `/api/users/${admins}`, { payload })).statusCode,
        JSON.stringify(payload),
      ).toBe(403);
    }
    // Sending one's own roles unchanged (the web form does) with a new name is fine and audited.
    const renamed = await cromos().send('PATCH', `/api/users/${self}`, {
      payload: { firstName: 'Carla', roles: before.roles, permissions: before.permissions },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const [audit] = await auditOf(self, 'user.updated');
    expect(audit).toMatchObject({
      actorUserId: self,
      before: { firstName: before.firstName },
      after: { firstName: 'Carla' },
    });
    expect(audit!.after).not.toHaveProperty('roles');
    await cromos().send('PATCH', `/api/users/${self}`, { payload: { firstName: before.firstName } });
  });

  it('a staff role comes from someone else who may give it; only a super-admin gives super-admin; the audit names who', async () => {
    const user = await createUser(['teacher']);
    // cromos does not hold the platform's powers: no super-admin, no templates.
    const up = await cromos().send('PATCH', `/api/users/${user.id}`, { payload: { roles: ['super-admin'] } });
    expect(up.statusCode).toBe(403);
    expect(up.json()).toMatchObject({
      code: 'forbidden',
      message: 'Non puoi assegnare ruoli o permessi che tu stesso non hai.',
    });
    expect(
      (
        await cromos().post('/api/users', {
          firstName: 'Altro',
          lastName: 'Capo',
          email: 'altro.capo@esempio.it',
          roles: ['super-admin'],
        })
      ).statusCode,
    ).toBe(403);
    // Sylla staff manage no users at all.
    expect(
      (await as('sylla@demo.test').send('PATCH', `/api/users/${user.id}`, { payload: { roles: ['sylla'] } }))
        .statusCode,
    ).toBe(403);
    // Another person grants: allowed and audited with the actor and the roles before and after.
    const ok = await admin().send('PATCH', `/api/users/${user.id}`, { payload: { roles: ['super-admin'] } });
    expect(ok.statusCode, ok.body).toBe(200);
    const [audit] = await auditOf(user.id, 'user.updated');
    expect(audit).toMatchObject({
      actorUserId: idOf('superadmin@demo.test'),
      before: { roles: ['teacher'] },
      after: { roles: ['super-admin'] },
    });
    // cromos may not touch a super-admin at all (it holds less).
    expect(
      (await cromos().send('PATCH', `/api/users/${user.id}`, { payload: { roles: ['teacher'] } })).statusCode,
    ).toBe(403);
    expect(
      (await admin().send('PATCH', `/api/users/${user.id}`, { payload: { roles: ['teacher'] } })).statusCode,
    ).toBe(200);
  });
});

describe('user actions', () => {
  it('suspend ends the sessions and the login; reactivate brings the login back; both audited', async () => {
    const email = 'rilevatore@demo.test';
    const target = idOf(email);
    expect((await admin().post(`/api/users/${idOf('superadmin@demo.test')}/suspend`)).statusCode).toBe(409);
    const res = await cromos().post(`/api/users/${target}/suspend`);
    expect(res.statusCode, res.body).toBe(200);
    const result = UserActionResultSchema.parse(res.json());
    expect(result.message).toMatch(/sospeso/);
    expect(result.user).toMatchObject({ status: 'suspended', activeSessions: 0 });
    expect((await as(email).get('/api/auth/me')).statusCode).toBe(401);
    expect((await as(email).refresh()).statusCode).toBe(401);
    expect((await new ApiClient(t, nextIp()).login(email)).statusCode).toBe(401);
    expect((await cromos().post(`/api/users/${target}/suspend`)).statusCode).toBe(409);
    const listed = UserListResponseSchema.parse((await admin().get('/api/users?status=suspended')).json());
    expect(listed.items.map((u) => u.email)).toEqual([email]);
    const [suspended] = await auditOf(target, 'user.suspended');
    expect(suspended).toMatchObject({
      before: { status: 'active' },
      after: { status: 'suspended', sessionsRevoked: 1 },
    });

    expect(
      UserActionResultSchema.parse((await admin().post(`/api/users/${target}/reactivate`)).json()).user
        .status,
    ).toBe('active');
    expect((await admin().post(`/api/users/${target}/reactivate`)).statusCode).toBe(409);
    clients.set(email, await loginClient(email));
    expect(await auditOf(target, 'user.reactivated')).toHaveLength(1);
  });

  it('unlock clears the lock of too many failed logins', async () => {
    const email = 'insegnante@demo.test';
    const target = idOf(email);
    expect((await admin().post(`/api/users/${target}/unlock`)).statusCode).toBe(409);
    const guesser = new ApiClient(t, nextIp());
    for (let i = 0; i < 10; i++) {
      await guesser.login(email, 'sbagliata-davvero');
      t.clock.advance(61_000);
    }
    expect((await new ApiClient(t, nextIp()).login(email)).statusCode).toBe(429);
    const detail = UserDetailSchema.parse((await admin().get(`/api/users/${target}`)).json());
    expect(detail.locked).toBe(true);
    expect(detail.lockedUntil).not.toBeNull();
    expect(
      UserListResponseSchema.parse((await admin().get('/api/users?locked=true')).json()).items.map(
        (u) => u.email,
      ),
    ).toEqual([email]);
    // The other value of the same filter (one statement kept for both, decision 059): everyone else.
    const unlocked = UserListResponseSchema.parse((await admin().get('/api/users?locked=false')).json());
    expect(unlocked.total).toBeGreaterThan(0);
    expect(unlocked.items.map((u) => u.email)).not.toContain(email);

    const res = await admin().post(`/api/users/${target}/unlock`);
    expect(res.statusCode, res.body).toBe(200);
    expect(UserActionResultSchema.parse(res.json()).user.locked).toBe(false);
    expect((await new ApiClient(t, nextIp()).login(email)).statusCode).toBe(200);
    const [audit] = await auditOf(target, 'auth.login.unlocked');
    expect(audit).toMatchObject({ actorUserId: idOf('superadmin@demo.test'), after: { lockedUntil: null } });
  });

  it('mfa/reset removes the second factor and tells the user by e-mail', async () => {
    const target = idOf('sylla@demo.test');
    const res = await cromos().post(`/api/users/${target}/mfa/reset`);
    expect(res.statusCode, res.body).toBe(200);
    expect(UserActionResultSchema.parse(res.json()).user.mfaEnrolled).toBe(false);
    expect(await newestMail('sylla@demo.test', 'email.mfa-reset')).toBeDefined();
    expect((await cromos().post(`/api/users/${target}/mfa/reset`)).statusCode).toBe(409);
    const login = await new ApiClient(t, nextIp()).login('sylla@demo.test', undefined, {
      secondFactor: false,
    });
    expect(login.json()).toMatchObject({ mfa_enrolment_required: true });
    const [audit] = await auditOf(target, 'auth.mfa.reset');
    expect(audit).toMatchObject({ before: { mfaEnrolled: true }, after: { mfaEnrolled: false } });
  });

  it('force-password-change sets the flag: the user must change the password before anything else', async () => {
    const user = await createUser(['detector']);
    const client = await acceptInvitation(user.email);
    const res = await admin().post(`/api/users/${user.id}/force-password-change`);
    expect(res.statusCode, res.body).toBe(200);
    expect(UserActionResultSchema.parse(res.json()).user.mustChangePassword).toBe(true);
    expect(
      (await client.get('/api/auth/me')).json<{ user: { mustChangePassword: boolean } }>().user
        .mustChangePassword,
    ).toBe(true);
    expect((await admin().post(`/api/users/${user.id}/force-password-change`)).statusCode).toBe(409);
    expect(await auditOf(user.id, 'user.password_change_forced')).toHaveLength(1);
  });

  it('resend-verification writes a verification e-mail to the outbox, at most once a minute', async () => {
    const user = await createUser(['teacher']);
    const res = await cromos().post(`/api/users/${user.id}/resend-verification`);
    expect(res.statusCode, res.body).toBe(200);
    expect(UserActionResultSchema.parse(res.json()).message).toContain(user.email);
    const mail = await newestMail(user.email, 'email.verifica');
    expect(mail!.textBody).toMatch(/verifica\/email-verificata\?token=/);
    const again = await cromos().post(`/api/users/${user.id}/resend-verification`);
    expect(again.statusCode).toBe(429);
    expect(again.json<{ message: string }>().message).toMatch(/riprova/);
    expect(
      (await cromos().post(`/api/users/${idOf('utenti@demo.test')}/resend-verification`)).statusCode,
    ).toBe(409);
    expect(await auditOf(user.id, 'user.verification_resent')).toHaveLength(1);
  });

  it('utenti@demo.test (user.index) reads the results of all this but changes nothing', async () => {
    const reader = as('utenti@demo.test');
    const target = idOf('rilevatore@demo.test');
    const audit = (await reader.get(`/api/audit?entity=user&entityId=${target}`)).json<{
      items: { action: string; before: unknown; after: unknown }[];
    }>();
    expect(audit.items.map((e) => e.action)).toEqual(
      expect.arrayContaining(['user.suspended', 'user.reactivated']),
    );
    expect(audit.items.find((e) => e.action === 'user.suspended')).toMatchObject({
      before: { status: 'active' },
      after: { status: 'suspended' },
    });
    for (const action of ACTIONS)
      expect((await reader.post(`/api/users/${target}/${action}`)).statusCode, action).toBe(403);
  });
});
