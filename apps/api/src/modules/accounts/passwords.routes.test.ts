import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { auditLog, passwordResets, users } from '../../db/schema/index.ts';
import {
  buildAccountsApp,
  call,
  linkToken,
  login,
  messagesTo,
  STRONG_PASSWORD,
} from '../../../test/accounts-harness.ts';
import { queriesOf } from '../../../test/build-test-app.ts';
import { settleAfterResponse } from './after-response.ts';

let t: Awaited<ReturnType<typeof buildAccountsApp>>;
beforeAll(async () => {
  t = await buildAccountsApp();
});
afterAll(() => t.close());

const forgot = (email: string) =>
  call(t, { method: 'POST', url: '/api/auth/forgot-password', body: { email } });
const reset = (token: string, password = STRONG_PASSWORD) =>
  call(t, {
    method: 'POST',
    url: '/api/auth/reset-password',
    body: { token, password, password_confirmation: password },
  });
const me = (bearer: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${bearer}` } });

describe('forgot and reset password', () => {
  it('answers the same for known and unknown addresses', async () => {
    const known = await forgot('insegnante@demo.test');
    const unknown = await forgot('nessuno@demo.test');
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
    expect(await messagesTo(t, 'nessuno@demo.test')).toHaveLength(0);
  });

  it('answers before reading anything about the address: the answer waits for no database work', async () => {
    // Hold the users table (and, on PGlite, the only connection): a handler that looked the address
    // up, or did anything else in the database, before answering would hang here.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const transaction = t.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table users in access exclusive mode`);
      locked();
      await gate;
    });
    await holding;
    const answers: string[] = [];
    try {
      for (const email of ['insegnante@demo.test', 'nessuno@demo.test']) {
        const answered = forgot(email).then((res) => `${res.statusCode}`);
        answers.push(
          await Promise.race([
            answered,
            new Promise<string>((resolve) => setTimeout(() => resolve('blocked'), 2000)),
          ]),
        );
      }
    } finally {
      release();
      await transaction;
    }
    expect(answers).toEqual(['202', '202']);
    // The link is queued once the table is free again.
    expect(
      (await messagesTo(t, 'insegnante@demo.test')).some((m) => m.templateKey === 'email.reset-password'),
    ).toBe(true);
  });

  it('answers a known and an unknown address in the same time (medians of 30 requests each < 2 ms apart)', async () => {
    const csrf = await t.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
    const xsrf = csrf.cookies.find((k) => k.name === 'XSRF-TOKEN')!.value;
    const timed = async (email: string) => {
      const started = performance.now();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        headers: { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf, 'user-agent': 'vitest' },
        payload: { email },
      });
      const elapsed = performance.now() - started;
      expect(res.statusCode).toBe(202);
      // The work a request starts after its answer ends before the next request is timed.
      await settleAfterResponse(t.app);
      return elapsed;
    };
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    for (let i = 0; i < 5; i++) await timed('nessuno-prova@demo.test');
    // A busy machine (other suites on two cores) can skew one round: the best of three rounds
    // counts. Before the fix every round differed (the known address paid its lookup, the count
    // and the transaction before the answer).
    const rounds: string[] = [];
    for (let round = 0; round < 3; round++) {
      const timings: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
      for (let i = 0; i < 30; i++) {
        // Alternating which kind goes first, so that neither always follows the other.
        const pair = [
          ['known', 'rilevatore@demo.test'],
          ['unknown', `nessuno-${round}-${i}@demo.test`],
        ] as const;
        for (const [kind, email] of i % 2 ? [...pair].reverse() : pair)
          timings[kind].push(await timed(email));
        t.clock.advance(21 * 60_000); // under the limit of 3 links an hour: the known address gets a link every time
      }
      const known = median(timings.known);
      const unknown = median(timings.unknown);
      rounds.push(`known ${known.toFixed(2)} ms, unknown ${unknown.toFixed(2)} ms`);
      if (Math.abs(known - unknown) < 2) return;
    }
    expect.fail(`medians differ by 2 ms or more in every round: ${rounds.join('; ')}`);
  });

  it('does the same database work after the answer for a known and an unknown address (issue 32: the next request must not wait longer)', async () => {
    t.clock.advance(2 * 60 * 60_000); // a known address under its limit of 3 links an hour
    const statementsOf = async (email: string) => {
      const csrf = await t.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
      const xsrf = csrf.cookies.find((k) => k.name === 'XSRF-TOKEN')!.value;
      return queriesOf(t.database, async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/forgot-password',
          headers: { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf, 'user-agent': 'vitest' },
          payload: { email },
        });
        expect(res.statusCode).toBe(202);
        await settleAfterResponse(t.app);
      });
    };
    // Once first: housekeeping due after the clock moved (old rate-limit windows) runs here, not in the measured pair.
    await statementsOf('riscaldamento@demo.test');
    const sentBefore = (await messagesTo(t, 'dirigente@demo.test')).length;
    const known = await statementsOf('dirigente@demo.test');
    const unknown = await statementsOf('nessuno-affatto@demo.test');
    // The known address really got its link: the same statements wrote it, and wrote nothing for the other.
    expect((await messagesTo(t, 'dirigente@demo.test')).length).toBe(sentBefore + 1);
    expect(known.length).toBeGreaterThan(0);
    expect(known.some((q) => /begin|transaction/i.test(q))).toBe(false);
    expect(unknown).toEqual(known);
  });

  it('resets once with a hashed token, revokes every session, sends a notice and does not log in', async () => {
    const bearer = await login(t, 'referente@demo.test');
    await forgot('referente@demo.test');
    const token = await linkToken(t, 'referente@demo.test', 'email.reset-password');
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const stored = await t.database.db.select().from(passwordResets);
    expect(JSON.stringify(stored)).not.toContain(token);
    const res = await reset(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('token');
    expect((await me(bearer)).statusCode).toBe(401);
    expect((await reset(token, 'Un-Altra-Password-99')).statusCode).toBe(400);
    const [notice] = await messagesTo(t, 'referente@demo.test');
    expect(notice!.templateKey).toBe('email.password-cambiata');
    expect(notice!.htmlBody).toContain('<html');
    expect(await login(t, 'referente@demo.test', STRONG_PASSWORD)).toBeTruthy();
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'auth.password.reset'));
    expect(audit).toHaveLength(1);
  });

  it('refuses an expired link and weak or common passwords', async () => {
    await forgot('rilevatore@demo.test');
    const token = await linkToken(t, 'rilevatore@demo.test', 'email.reset-password');
    for (const weak of ['password1234', 'qwertyuiop123', 'Roberto-Rilevatore-1', 'scuola']) {
      const res = await reset(token, weak);
      expect(res.statusCode, weak).toBe(422);
      expect(res.json().errors.password, weak).toBeTruthy();
    }
    const mismatch = await call(t, {
      method: 'POST',
      url: '/api/auth/reset-password',
      body: { token, password: STRONG_PASSWORD, password_confirmation: 'x' },
    });
    expect(mismatch.json().errors.password_confirmation).toBeTruthy();
    t.clock.advance(60 * 60_000 + 1000);
    expect((await reset(token)).json().code).toBe('reset_token_invalid');
  });
});

describe('POST /api/auth/change-password', () => {
  const change = (bearer: string, current: string, password = STRONG_PASSWORD) =>
    call(t, {
      method: 'POST',
      url: '/api/auth/change-password',
      bearer,
      body: { current_password: current, password, password_confirmation: password },
    });

  it('works for a user who must change the password, clears the flag and keeps only this session', async () => {
    const other = await login(t, 'cambio-password@demo.test');
    const bearer = await login(t, 'cambio-password@demo.test');
    const blocked = await t.app.inject({
      method: 'GET',
      url: '/api/auth/sessions',
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(blocked.json().code).toBe('password_change_required');
    expect((await change(bearer, 'sbagliata')).json().errors.current_password).toBeTruthy();
    expect((await change(bearer, 'Portale.Demo.2026', 'Portale.Demo.2026')).statusCode).toBe(422);
    const res = await change(bearer, 'Portale.Demo.2026');
    expect(res.statusCode).toBe(200);
    expect((await me(bearer)).json().user.mustChangePassword).toBe(false);
    expect((await me(other)).statusCode).toBe(401);
    const [user] = await t.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'cambio-password@demo.test'));
    expect(user!.mustChangePassword).toBe(false);
    expect((await messagesTo(t, 'cambio-password@demo.test'))[0]!.templateKey).toBe(
      'email.password-cambiata',
    );
  });
});
