import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BOOKING_MESSAGES,
  BookingListResponseSchema,
  PublicSlotListSchema,
  SlotListResponseSchema,
  SlotSummarySchema,
  dateToRomeLocal,
} from '@portale/shared/bookings';
import { DEMO_ACCOUNTS } from '../../seed/seed.ts';
import { buildTestApp, type TestApp, sqlRows } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp, guestClient } from '../../../test/http-client.ts';
import { createMailTransport } from '../messages/message-transports.ts';
import { BOOKING_RATE_LIMIT } from './bookings.routes.ts';
import { seedDemoBookings } from './bookings-seed.ts';

let t: TestApp;
const clients = new Map<string, ApiClient>();
const as = (email: string) => clients.get(email)!;
const staff = () => as('sylla@demo.test');
const STAFF = new Set(['superadmin@demo.test', 'sylla@demo.test', 'cromos@demo.test']);
const DAY = 24 * 60 * 60_000;

/** A slot `days` from the test clock, created by staff through the API. */
async function newSlot(overrides: Record<string, unknown> = {}, days = 7) {
  const start = new Date(t.clock.now().getTime() + days * DAY);
  const res = await staff().post('/api/booking-slots', {
    title: `Appuntamento ${Math.random().toString(36).slice(2, 8)}`,
    description: 'Descrizione',
    startsAt: dateToRomeLocal(start),
    endsAt: dateToRomeLocal(new Date(start.getTime() + 2 * 60 * 60_000)),
    place: 'Roma, Sala 1',
    capacity: 10,
    published: true,
    ...overrides,
  });
  expect(res.statusCode, res.body).toBe(201);
  return SlotSummarySchema.parse(res.json());
}

const booking = (slotId: number, email = `p${Math.random().toString(36).slice(2, 10)}@example.org`) => ({
  slotId,
  name: 'Maria Rossi',
  email,
  institute: 'IC di prova',
  privacyAccepted: true,
});

/** The cancel token of the newest confirmation e-mail to `email`, from the outbox. */
async function cancelTokenOf(email: string): Promise<string> {
  const [row] = await sqlRows<{ text_body: string }>(
    t,
    sql`select text_body from outbox where recipient = ${email} and template_key = 'email.prenotazione-confermata' order by id desc limit 1`,
  );
  const token = /prenotazioni\?token=([\w-]+)/.exec(row!.text_body)?.[1];
  expect(token).toBeDefined();
  return token!;
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

describe('staff manage slots', () => {
  it('every role: staff allowed, guest 401, every other account 403', async () => {
    const slot = await newSlot();
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/booking-slots/staff'],
      ['GET', '/api/booking-slots/staff/export?format=csv'],
      ['GET', `/api/booking-slots/${slot.id}`],
      ['GET', `/api/booking-slots/${slot.id}/bookings`],
      ['GET', `/api/booking-slots/${slot.id}/bookings/export?format=csv`],
      ['PATCH', `/api/booking-slots/${slot.id}`, { description: 'Nuova descrizione' }],
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
    expect((await as('insegnante@demo.test').post('/api/booking-slots', {})).statusCode).toBe(403);
    expect((await (await guestClient(t)).post('/api/booking-slots', {})).statusCode).toBe(401);
  });

  it('creates a slot (audited), refuses bad input per field and an unknown slot is 404', async () => {
    const slot = await newSlot({ capacity: 5 });
    expect(slot).toMatchObject({ capacity: 5, booked: 0, published: true });
    const [audit] = await sqlRows<{ action: string }>(
      t,
      sql`select action from audit_log where entity = 'booking-slot' and entity_id = ${String(slot.id)}`,
    );
    expect(audit?.action).toBe('booking-slot.created');

    const bad = await staff().post('/api/booking-slots', {
      title: 'x',
      startsAt: '2026-02-30T10:00',
      endsAt: 'domani',
      capacity: 0,
      onlineUrl: 'http://insicuro',
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json<{ errors: Record<string, string[]> }>().errors).sort()).toEqual([
      'capacity',
      'endsAt',
      'onlineUrl',
      'startsAt',
      'title',
    ]);
    const noPlace = await staff().post('/api/booking-slots', {
      title: 'Senza luogo',
      startsAt: '2027-01-10T10:00',
      endsAt: '2027-01-10T09:00',
      capacity: 3,
    });
    expect(noPlace.statusCode).toBe(422);
    expect(Object.keys(noPlace.json<{ errors: Record<string, string[]> }>().errors).sort()).toEqual([
      'endsAt',
      'place',
    ]);

    expect((await staff().get('/api/booking-slots/987654')).statusCode).toBe(404);
    expect(
      (await staff().send('PATCH', '/api/booking-slots/987654', { payload: { title: 'Nuovo' } })).statusCode,
    ).toBe(404);
  });

  it('stores Rome wall-clock times as UTC instants', async () => {
    const res = await staff().post('/api/booking-slots', {
      title: 'Ora legale e solare',
      startsAt: '2027-07-01T10:00',
      endsAt: '2027-07-01T11:00',
      place: 'Roma',
      capacity: 3,
    });
    expect(res.json()).toMatchObject({
      startsAt: '2027-07-01T08:00:00.000Z',
      endsAt: '2027-07-01T09:00:00.000Z',
      published: false,
    });
    const winter = await staff().post('/api/booking-slots', {
      title: 'Inverno',
      startsAt: '2027-01-15T10:00',
      endsAt: '2027-01-15T11:00',
      place: 'Roma',
      capacity: 3,
    });
    expect(winter.json()).toMatchObject({ startsAt: '2027-01-15T09:00:00.000Z' });
  });

  it('edits and unpublishes a slot (audited); capacity never below the confirmed bookings', async () => {
    const slot = await newSlot({ capacity: 3 });
    for (let i = 0; i < 2; i++)
      expect((await (await guestClient(t)).post('/api/bookings', booking(slot.id))).statusCode).toBe(201);
    const tooSmall = await staff().send('PATCH', `/api/booking-slots/${slot.id}`, {
      payload: { capacity: 1 },
    });
    expect(tooSmall.statusCode).toBe(422);
    expect(tooSmall.json()).toMatchObject({
      errors: { capacity: [BOOKING_MESSAGES.capacityBelowBooked(2)] },
    });
    const endsFirst = await staff().send('PATCH', `/api/booking-slots/${slot.id}`, {
      payload: { endsAt: dateToRomeLocal(new Date(new Date(slot.startsAt).getTime() - 60_000)) },
    });
    expect(endsFirst.statusCode).toBe(422);

    const res = await staff().send('PATCH', `/api/booking-slots/${slot.id}`, {
      payload: { title: 'Titolo corretto', published: false },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ title: 'Titolo corretto', published: false, booked: 2 });
    const audits = await sqlRows<{ action: string; after: Record<string, unknown> }>(
      t,
      sql`select action, after from audit_log where entity = 'booking-slot' and entity_id = ${String(slot.id)} and action = 'booking-slot.updated'`,
    );
    expect(audits.at(-1)?.after).toEqual({ title: 'Titolo corretto', published: false });

    const publicList = PublicSlotListSchema.parse(
      (await (await guestClient(t)).get('/api/booking-slots')).json(),
    );
    expect(publicList.items.map((s) => s.id)).not.toContain(slot.id);
    expect((await (await guestClient(t)).post('/api/bookings', booking(slot.id))).statusCode).toBe(422);
  });

  it('lists slots with filters, sort and pages; lists and exports the bookings of a slot', async () => {
    const slot = await newSlot({ title: 'Elenco con prenotazioni' });
    await (await guestClient(t)).post('/api/bookings', booking(slot.id, 'anna.bianchi@example.org'));
    await (
      await guestClient(t)
    ).post('/api/bookings', { ...booking(slot.id, 'carlo.verdi@example.org'), name: 'Carlo Verdi' });

    const list = SlotListResponseSchema.parse(
      (
        await staff().get(
          '/api/booking-slots/staff?q=elenco%20prenotazioni&period=upcoming&sort=-startsAt&pageSize=25',
        )
      ).json(),
    );
    expect(list.items.map((s) => s.id)).toEqual([slot.id]);
    const slotsCsv = await staff().get('/api/booking-slots/staff/export?format=csv&q=elenco%20prenotazioni');
    expect(slotsCsv.headers['x-total-count']).toBe('1');
    expect(slotsCsv.body).toContain('Elenco con prenotazioni;');
    expect(slotsCsv.body).toContain(';Roma, Sala 1;;10;2;Sì');
    expect((await staff().get('/api/booking-slots/staff?sort=nope')).statusCode).toBe(422);
    expect((await staff().get('/api/booking-slots/staff?pageSize=7')).statusCode).toBe(422);

    const bookings = BookingListResponseSchema.parse(
      (await staff().get(`/api/booking-slots/${slot.id}/bookings?sort=name`)).json(),
    );
    expect(bookings.total).toBe(2);
    expect(bookings.items.map((b) => b.name)).toEqual(['Carlo Verdi', 'Maria Rossi']);
    const filtered = BookingListResponseSchema.parse(
      (await staff().get(`/api/booking-slots/${slot.id}/bookings?q=verdi`)).json(),
    );
    expect(filtered.items.map((b) => b.email)).toEqual(['carlo.verdi@example.org']);

    const csv = await staff().get(`/api/booking-slots/${slot.id}/bookings/export?format=csv&sort=name`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['x-total-count']).toBe('2');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Nome e cognome;E-mail;Istituto;Stato;Prenotata il;Annullata il');
    expect(lines[1]).toContain('Carlo Verdi;carlo.verdi@example.org;IC di prova;Confermata');
    const xlsx = await staff().get(`/api/booking-slots/${slot.id}/bookings/export?format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('exports dates a spreadsheet can sort: real date cells (Rome wall clock, Italian format) in XLSX, dd/mm/yyyy HH:mm in CSV', async () => {
    const slot = await newSlot({ title: 'Esportazione con date', capacity: 7 });
    const csv = await staff().get('/api/booking-slots/staff/export?format=csv&q=esportazione%20date');
    const [, line] = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const rome = (iso: string) =>
      new Intl.DateTimeFormat('it-IT', {
        timeZone: 'Europe/Rome',
        day: '2-digit',
        month: '2-digit',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      })
        .format(new Date(iso))
        .replace(',', '');
    expect(line).toContain(`;${rome(slot.startsAt)};${rome(slot.endsAt)};`);
    expect(csv.headers['content-disposition']).toMatch(/filename="appuntamenti-\d{4}-\d{2}-\d{2}\.csv"/);

    const xlsx = await staff().get('/api/booking-slots/staff/export?format=xlsx&q=esportazione%20date');
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const row = book.worksheets[0]!.getRow(2);
    const starts = row.getCell(2);
    expect(starts.type).toBe(ExcelJS.ValueType.Date);
    expect(starts.numFmt).toBe('dd/mm/yyyy hh:mm');
    const local = dateToRomeLocal(slot.startsAt);
    expect((starts.value as Date).toISOString().slice(0, 16)).toBe(local);
    expect(row.getCell(6).type).toBe(ExcelJS.ValueType.Number);
    expect(row.getCell(6).value).toBe(7);
  });
});

describe('public bookings', () => {
  it('lists upcoming published slots with their free places, never drafts or past ones', async () => {
    const open = await newSlot({ capacity: 4 });
    const draft = await newSlot({ published: false });
    const past = await newSlot({}, -3);
    await (await guestClient(t)).post('/api/bookings', booking(open.id));
    const res = await (await guestClient(t)).get('/api/booking-slots');
    expect(res.statusCode).toBe(200);
    const items = PublicSlotListSchema.parse(res.json()).items;
    expect(items.find((s) => s.id === open.id)).toMatchObject({ capacity: 4, freePlaces: 3 });
    expect(items.map((s) => s.id)).not.toContain(draft.id);
    expect(items.map((s) => s.id)).not.toContain(past.id);
  });

  it('books (201) with a confirmation e-mail carrying the cancel link and the .ics', async () => {
    const slot = await newSlot({ title: 'Incontro con calendario' });
    const email = 'giulia.neri@example.org';
    const res = await (
      await guestClient(t)
    ).post('/api/bookings', { ...booking(slot.id, 'Giulia.Neri@Example.org'), institute: '  ' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      message: BOOKING_MESSAGES.confirmed,
      slot: { id: slot.id, freePlaces: 9 },
    });
    const [mail] = await sqlRows<{
      subject: string;
      text_body: string;
      attachments: { name: string; contentType: string; base64: string }[];
    }>(
      t,
      sql`select subject, text_body, attachments from outbox where recipient = ${email} and template_key = 'email.prenotazione-confermata'`,
    );
    expect(mail!.subject).toBe('Prenotazione confermata: Incontro con calendario');
    expect(mail!.text_body).toContain(`${t.env.publicWebUrl}/prenotazioni?token=`);
    expect(mail!.attachments[0]).toMatchObject({ name: 'appuntamento.ics' });
    const ics = Buffer.from(mail!.attachments[0]!.base64, 'base64').toString('utf8');
    expect(ics).toContain('BEGIN:VEVENT');
    expect(ics).toContain(`DTSTART:${slot.startsAt.replace(/[-:]/g, '').replace('.000', '')}`);
    expect(ics).toContain('SUMMARY:Incontro con calendario');
    const [stored] = await sqlRows<{ institute: string | null; cancel_token_hash: string }>(
      t,
      sql`select institute, cancel_token_hash from bookings where email = ${email}`,
    );
    expect(stored!.institute).toBeNull();
    const token = await cancelTokenOf(email);
    expect(stored!.cancel_token_hash).not.toContain(token);
    expect(stored!.cancel_token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses bad input per field (422) and changes nothing', async () => {
    const slot = await newSlot();
    const res = await (
      await guestClient(t)
    ).post('/api/bookings', {
      slotId: slot.id,
      name: 'A',
      email: 'non-una-email',
      institute: 'x'.repeat(201),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      name: [BOOKING_MESSAGES.name],
      email: [BOOKING_MESSAGES.email],
      institute: [BOOKING_MESSAGES.institute],
      privacyAccepted: [BOOKING_MESSAGES.privacy],
    });
    const unknown = await (await guestClient(t)).post('/api/bookings', booking(987654));
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ errors: { slotId: [BOOKING_MESSAGES.slotNotFound] } });
    const [row] = await sqlRows<{ booked: number }>(
      t,
      sql`select booked from booking_slots where id = ${slot.id}`,
    );
    expect(row!.booked).toBe(0);
  });

  it('a full slot refuses with 409 and a clear message; the same address cannot book twice', async () => {
    const slot = await newSlot({ capacity: 1 });
    expect(
      (await (await guestClient(t)).post('/api/bookings', booking(slot.id, 'primo@example.org'))).statusCode,
    ).toBe(201);
    const again = await (await guestClient(t)).post('/api/bookings', booking(slot.id, 'PRIMO@example.org'));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: BOOKING_MESSAGES.duplicate });
    const full = await (await guestClient(t)).post('/api/bookings', booking(slot.id));
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({ statusCode: 409, code: 'slot_full', message: BOOKING_MESSAGES.full });
    const items = PublicSlotListSchema.parse(
      (await (await guestClient(t)).get('/api/booking-slots')).json(),
    ).items;
    expect(items.find((s) => s.id === slot.id)?.freePlaces).toBe(0);
  });

  it('cancelling frees the place; an unknown or used token is the same 404', async () => {
    const slot = await newSlot({ capacity: 1 });
    const email = 'da.annullare@example.org';
    expect((await (await guestClient(t)).post('/api/bookings', booking(slot.id, email))).statusCode).toBe(
      201,
    );
    const token = await cancelTokenOf(email);
    const shown = await (await guestClient(t)).get(`/api/bookings/${token}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ name: 'Maria Rossi', state: 'confermata', slot: { id: slot.id } });

    const cancelled = await (await guestClient(t)).send('DELETE', `/api/bookings/${token}`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toEqual({ message: BOOKING_MESSAGES.cancelled });
    const [row] = await sqlRows<{ booked: number }>(
      t,
      sql`select booked from booking_slots where id = ${slot.id}`,
    );
    expect(row!.booked).toBe(0);
    const [b] = await sqlRows<{ state: string; cancelled_at: unknown }>(
      t,
      sql`select state, cancelled_at from bookings where email = ${email}`,
    );
    expect(b).toMatchObject({ state: 'annullata' });
    expect(b!.cancelled_at).not.toBeNull();

    const used = await (await guestClient(t)).send('DELETE', `/api/bookings/${token}`);
    const unknown = await (await guestClient(t)).send('DELETE', `/api/bookings/${'A'.repeat(43)}`);
    const malformed = await (await guestClient(t)).send('DELETE', '/api/bookings/corto');
    for (const res of [used, unknown, malformed]) expect(res.statusCode).toBe(404);
    expect(used.json()).toEqual(unknown.json());
    expect(malformed.json()).toEqual(unknown.json());
    expect(used.json()).toMatchObject({ message: BOOKING_MESSAGES.tokenNotFound });
    expect((await (await guestClient(t)).get(`/api/bookings/${token}`)).statusCode).toBe(404);

    // The freed place can be booked again, by the same address too.
    expect((await (await guestClient(t)).post('/api/bookings', booking(slot.id, email))).statusCode).toBe(
      201,
    );
  });

  it('200 concurrent bookings for the last 3 places: exactly 3 succeed, the others get 409', async () => {
    const slot = await newSlot({ capacity: 50 });
    await t.database.db.execute(sql`update booking_slots set booked = 47 where id = ${slot.id}`);
    const guests = await Promise.all(Array.from({ length: 200 }, () => guestClient(t)));
    const results = await Promise.all(
      guests.map((g, i) => g.post('/api/bookings', booking(slot.id, `corsa${i}@example.org`))),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(3);
    expect(codes.filter((c) => c === 409)).toHaveLength(197);
    const [row] = await sqlRows<{ booked: number }>(
      t,
      sql`select booked from booking_slots where id = ${slot.id}`,
    );
    expect(row!.booked).toBe(50);
    const [count] = await sqlRows<{ n: number | string }>(
      t,
      sql`select count(*) as n from bookings where slot_id = ${slot.id} and state = 'confermata'`,
    );
    expect(Number(count!.n)).toBe(3);
    const [mails] = await sqlRows<{ n: number | string }>(
      t,
      sql`select count(*) as n from outbox where template_key = 'email.prenotazione-confermata' and recipient like 'corsa%'`,
    );
    expect(Number(mails!.n)).toBe(3);
  }, 120_000);

  it('limits booking attempts per e-mail address with a clear Italian 429, whatever the IP', async () => {
    const slot = await newSlot({ capacity: 100 });
    const client = await guestClient(t);
    const same = 'stessa.persona@example.org';
    for (let i = 0; i < BOOKING_RATE_LIMIT.perEmail; i++)
      await client.post('/api/bookings', booking(slot.id, same));
    const res = await client.post('/api/bookings', booking(slot.id, same));
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ message: BOOKING_MESSAGES.rateLimited });
    expect(res.headers['retry-after']).toBeDefined();
    expect((await (await guestClient(t)).post('/api/bookings', booking(slot.id, same))).statusCode).toBe(429);
  });

  it('a school’s staff behind one address book one each (failed attempts included); the address has a larger budget of its own', async () => {
    const slot = await newSlot({ capacity: 100 });
    const school = await guestClient(t);
    // Twelve colleagues, some of whom mistype first: all booked from the same IP.
    for (let i = 0; i < 12; i++) {
      if (i % 3 === 0)
        expect(
          (
            await school.post('/api/bookings', {
              ...booking(slot.id),
              email: `collega${i}@scuola`,
              name: 'X',
            })
          ).statusCode,
        ).toBe(422);
      const res = await school.post('/api/bookings', {
        ...booking(slot.id),
        email: `collega${i}@scuola.it`,
        name: `Collega ${i}`,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    let last = 201;
    for (let i = 12 + 4; i < BOOKING_RATE_LIMIT.max + 1; i++)
      last = (await school.post('/api/bookings', { ...booking(slot.id), email: `altro${i}@scuola.it` }))
        .statusCode;
    expect(last).toBe(429);
  });
});

describe('seedDemoBookings', () => {
  it('adds upcoming slots, one of them full, and is safe to run twice', async () => {
    await seedDemoBookings(t.database.db, t.clock.now());
    await seedDemoBookings(t.database.db, t.clock.now());
    const items = PublicSlotListSchema.parse(
      (await (await guestClient(t)).get('/api/booking-slots')).json(),
    ).items;
    const demo = items.filter((s) => /presentazione|Webinar|Laboratorio/.test(s.title));
    expect(demo).toHaveLength(3);
    expect(demo.find((s) => s.title.startsWith('Laboratorio'))?.freePlaces).toBe(0);
  });
});

describe('the .ics attachment', () => {
  it('travels with the e-mail the mail transport writes', async () => {
    const slot = await newSlot({ title: 'Allegato calendario' });
    const email = 'allegato@example.org';
    expect((await (await guestClient(t)).post('/api/bookings', booking(slot.id, email))).statusCode).toBe(
      201,
    );
    const [row] = await sqlRows<{
      id: number;
      subject: string;
      html_body: string;
      text_body: string;
      attachments: { name: string; contentType: string; base64: string }[];
    }>(t, sql`select id, subject, html_body, text_body, attachments from outbox where recipient = ${email}`);
    const dir = await mkdtemp(join(tmpdir(), 'booking-mail-'));
    try {
      const transport = createMailTransport({ from: 'portale@example.org', mailDir: dir });
      const path = await transport.send(
        {
          id: Number(row!.id),
          templateKey: 'email.prenotazione-confermata',
          recipient: email,
          subject: row!.subject,
          htmlBody: row!.html_body,
          textBody: row!.text_body,
          attachments: row!.attachments,
        },
        t.clock.now(),
      );
      transport.close();
      const eml = await readFile(path, 'utf8');
      expect(eml).toMatch(
        /Content-Type: text\/calendar; charset=utf-8; method=PUBLISH;\s+name=appuntamento\.ics/i,
      );
      expect(eml).toContain('Content-Disposition: attachment; filename=appuntamento.ics');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('calendar events that follow the booking', () => {
  type Mail = {
    template_key: string;
    subject: string;
    attachments: { name: string; contentType: string; base64: string }[];
  };
  const mailsTo = (email: string) =>
    sqlRows<Mail>(
      t,
      sql`select template_key, subject, attachments from outbox where recipient = ${email} order by id`,
    );
  /** The event's text with its folded lines joined again (RFC 5545 §3.1). */
  const icsOf = (mail: Mail) =>
    Buffer.from(mail.attachments[0]!.base64, 'base64')
      .toString('utf8')
      .replace(/\r\n[ \t]/g, '');
  const field = (ics: string, name: string) => new RegExp(`^${name}[:;](.*)$`, 'm').exec(ics)?.[1];

  it('the confirmation publishes a CONFIRMED event with SEQUENCE 0, an organizer, the booker, and a UID of this deployment', async () => {
    const slot = await newSlot({ title: 'Evento confermato' });
    const email = 'evento.confermato@example.org';
    expect((await (await guestClient(t)).post('/api/bookings', booking(slot.id, email))).statusCode).toBe(
      201,
    );
    const [mail] = await mailsTo(email);
    const ics = icsOf(mail!);
    expect(field(ics, 'METHOD')).toBe('PUBLISH');
    expect(field(ics, 'STATUS')).toBe('CONFIRMED');
    expect(field(ics, 'SEQUENCE')).toBe('0');
    expect(field(ics, 'UID')).toMatch(/^prenotazione-\d+-[0-9a-f]{12}@/);
    expect(ics).toMatch(/^ORGANIZER;CN="Portale Scuole":mailto:no-reply@/m);
    expect(ics).toContain(`ATTENDEE;CN="Maria Rossi";ROLE=REQ-PARTICIPANT:mailto:${email}`);
  });

  it('a cancellation e-mails a METHOD:CANCEL event with the same UID and a higher SEQUENCE', async () => {
    const slot = await newSlot({ title: 'Evento annullato' });
    const email = 'evento.annullato@example.org';
    expect((await (await guestClient(t)).post('/api/bookings', booking(slot.id, email))).statusCode).toBe(
      201,
    );
    const token = await cancelTokenOf(email);
    t.clock.advance(90_000);
    expect((await (await guestClient(t)).send('DELETE', `/api/bookings/${token}`)).statusCode).toBe(200);
    const [confirmed, cancelled] = await mailsTo(email);
    expect(cancelled).toMatchObject({
      template_key: 'email.prenotazione-annullata',
      subject: 'Prenotazione annullata: Evento annullato',
    });
    expect(cancelled!.attachments[0]).toMatchObject({
      name: 'appuntamento-annullato.ics',
      contentType: 'text/calendar; charset=utf-8; method=CANCEL',
    });
    const ics = icsOf(cancelled!);
    expect(field(ics, 'METHOD')).toBe('CANCEL');
    expect(field(ics, 'STATUS')).toBe('CANCELLED');
    expect(Number(field(ics, 'SEQUENCE'))).toBeGreaterThan(Number(field(icsOf(confirmed!), 'SEQUENCE')));
    expect(field(ics, 'UID')).toBe(field(icsOf(confirmed!), 'UID'));
  });

  it('a changed time or place e-mails every confirmed booker an event that replaces theirs; other edits send nothing', async () => {
    const slot = await newSlot({ title: 'Evento spostato', capacity: 3 });
    const [a, b, gone] = [
      'spostato.a@example.org',
      'spostato.b@example.org',
      'spostato.annullato@example.org',
    ];
    for (const email of [a, b, gone])
      expect((await (await guestClient(t)).post('/api/bookings', booking(slot.id, email))).statusCode).toBe(
        201,
      );
    expect(
      (await (await guestClient(t)).send('DELETE', `/api/bookings/${await cancelTokenOf(gone)}`)).statusCode,
    ).toBe(200);

    expect(
      (
        await staff().send('PATCH', `/api/booking-slots/${slot.id}`, {
          payload: { capacity: 5, description: 'Nuova descrizione' },
        })
      ).statusCode,
    ).toBe(200);
    expect((await mailsTo(a)).map((m) => m.template_key)).toEqual(['email.prenotazione-confermata']);

    t.clock.advance(60_000);
    const later = new Date(new Date(slot.startsAt).getTime() + DAY);
    const moved = await staff().send('PATCH', `/api/booking-slots/${slot.id}`, {
      payload: {
        startsAt: dateToRomeLocal(later),
        endsAt: dateToRomeLocal(new Date(later.getTime() + 3_600_000)),
        place: 'Milano, Sala 2',
      },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    for (const email of [a, b]) {
      const [confirmed, changed] = await mailsTo(email);
      expect(changed).toMatchObject({
        template_key: 'email.prenotazione-modificata',
        subject: 'Appuntamento modificato: Evento spostato',
      });
      const ics = icsOf(changed!);
      expect(field(ics, 'METHOD')).toBe('PUBLISH');
      expect(field(ics, 'UID')).toBe(field(icsOf(confirmed!), 'UID'));
      expect(Number(field(ics, 'SEQUENCE'))).toBeGreaterThan(0);
      expect(field(ics, 'DTSTART')).toBe(later.toISOString().replace(/[-:]/g, '').replace('.000', ''));
      expect(ics).toContain('LOCATION:Milano\\, Sala 2');
    }
    expect((await mailsTo(gone)).map((m) => m.template_key)).toEqual([
      'email.prenotazione-confermata',
      'email.prenotazione-annullata',
    ]);
  });
});
