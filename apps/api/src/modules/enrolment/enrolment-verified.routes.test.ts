// Decision 054: a person who logged in with SPID/CIE and has no account enrols their school as the
// verified person: their name, surname and codice fiscale are the provider's, and the account the
// enrolment creates for them is linked to the identity, its codice fiscale verified.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { taxCodeCheckChar } from '@portale/shared/accounts';
import { ENROLMENT_MESSAGES } from '@portale/shared/enrolment';
import { auditLog, institutes, schoolSites, userIdentities, users } from '../../db/schema/index.ts';
import type { TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import { messagesTo } from '../../../test/accounts-harness.ts';
import type { TestOidcProvider } from '../../../test/support/oidc-provider.ts';
import { loginWithCie, startCieTestApp } from '../../../test/support/cie-test-app.ts';

const cf = (first15: string) => first15 + taxCodeCheckChar(first15);

let op: TestOidcProvider;
let t: TestApp;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ op, t, close } = await startCieTestApp());
});
afterAll(() => close?.());

let serial = 0;
/** A browser that logged in with CIE as a person with no account (the registration offer). */
async function verifiedBrowser() {
  serial += 1;
  const taxCode = cf(`VRDGLI80C55H${String(600 + serial)}`);
  const c = new ApiClient(t, nextIp());
  const who = {
    sub: `enrol-${serial}-${Date.now()}`,
    given_name: 'Giulia',
    family_name: 'Verdi',
    fiscalNumber: taxCode,
  };
  expect((await loginWithCie(c, op, who)).searchParams.get('esito')).toBe('registrazione');
  await c.csrf();
  return { c, taxCode };
}

/** A confirmed phone verification of this browser, as the enrolment's first step. */
async function verifiedPhone(c: ApiClient) {
  const e164 = `+39333700${String(serial).padStart(4, '0')}`;
  const started = await c.post('/api/phone-verifications', { phone: e164 });
  expect(started.statusCode).toBe(201);
  const verificationId: string = started.json().verificationId;
  const [sms] = await messagesTo(t, e164);
  const code = /\b(\d{6})\b/.exec(sms!.textBody)![1]!;
  expect((await c.post(`/api/phone-verifications/${verificationId}/confirm`, { code })).statusCode).toBe(200);
  return { verificationId, phone: e164 };
}

async function newInstitute() {
  const ministryCode = `RMIC8V${String(serial).padStart(3, '0')}X`;
  const [institute] = await t.database.db
    .insert(institutes)
    .values({
      ministryCode,
      name: `Istituto comprensivo verificato ${serial}`,
      type: 'Istituto Comprensivo',
      isStateSchool: true,
      region: 'Lazio',
      province: 'RM',
      municipalityCode: 'H501',
      municipalityName: 'Roma',
    })
    .returning();
  const [site] = await t.database.db
    .insert(schoolSites)
    .values({
      ministryCode: `RMEE8V${String(serial).padStart(3, '0')}X`,
      instituteId: institute!.id,
      name: 'Plesso verificato',
      schoolLevel: 'primaria',
      typeLabel: 'Scuola primaria',
      municipalityCode: 'H501',
      municipalityName: 'Roma',
      province: 'RM',
      region: 'Lazio',
    })
    .returning({ id: schoolSites.id });
  return { id: institute!.id, siteId: site!.id };
}

/** The enrolment body, with the people as the form typed them. */
const body = (verificationId: string, phone: string, instituteId: number, siteId: number, extra = {}) => ({
  verificationId,
  instituteId,
  schoolSiteIds: [siteId],
  privacyAccepted: true,
  principal: {
    firstName: 'Nome',
    lastName: 'Digitato',
    email: `dirigente${serial}@scuola.it`,
    taxCode: cf('DGTNMO70A01H501'),
    phone,
  },
  firstContact: null,
  ...extra,
});

const userByEmail = async (email: string) =>
  (await t.database.db.select().from(users).where(eq(users.email, email)))[0];

describe('an enrolment by the person verified with SPID/CIE', () => {
  it('the principal is the verified person: the provider’s data, the account linked and its codice fiscale verified', async () => {
    const { c, taxCode } = await verifiedBrowser();
    const { verificationId, phone } = await verifiedPhone(c);
    const school = await newInstitute();
    const res = await c.post(
      '/api/enrolments',
      body(verificationId, phone, school.id, school.siteId, { verifiedPerson: 'principal' }),
    );
    expect(res.statusCode).toBe(201);
    const principal = await userByEmail(`dirigente${serial}@scuola.it`);
    expect(principal).toMatchObject({
      firstName: 'Giulia',
      lastName: 'Verdi',
      taxCode,
      taxCodeVerifiedSource: 'cie',
    });
    const identities = await t.database.db
      .select()
      .from(userIdentities)
      .where(eq(userIdentities.userId, principal!.id));
    expect(identities).toMatchObject([{ provider: 'cie', taxCode }]);
    const linked = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'identity.linked'), eq(auditLog.entityId, String(principal!.id))));
    expect(linked[0]?.after).toMatchObject({ provider: 'cie', proof: 'registration' });
  });

  it('the first contact is the verified person; the principal stays as typed', async () => {
    const { c, taxCode } = await verifiedBrowser();
    const { verificationId, phone } = await verifiedPhone(c);
    const school = await newInstitute();
    const contact = {
      firstName: 'Altro',
      lastName: 'Nome',
      email: `referente${serial}@scuola.it`,
      taxCode: cf('LTRNMO80A01H501'),
      phone,
    };
    const res = await c.post(
      '/api/enrolments',
      body(verificationId, phone, school.id, school.siteId, {
        verifiedPerson: 'firstContact',
        firstContact: contact,
      }),
    );
    expect(res.statusCode).toBe(201);
    expect(await userByEmail(contact.email)).toMatchObject({
      firstName: 'Giulia',
      taxCode,
      taxCodeVerifiedSource: 'cie',
    });
    expect(await userByEmail(`dirigente${serial}@scuola.it`)).toMatchObject({
      firstName: 'Nome',
      taxCodeVerifiedSource: null,
    });
  });

  it('with the verified identity expired: a clear refusal and nothing enrolled', async () => {
    const { c } = await verifiedBrowser();
    const { verificationId, phone } = await verifiedPhone(c);
    const school = await newInstitute();
    t.clock.advance(16 * 60_000);
    const res = await c.post(
      '/api/enrolments',
      body(verificationId, phone, school.id, school.siteId, { verifiedPerson: 'principal' }),
    );
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(ENROLMENT_MESSAGES.identityExpired);
    const [institute] = await t.database.db.select().from(institutes).where(eq(institutes.id, school.id));
    expect(institute!.adhesionState).toBe('nessuna');
    expect(await userByEmail(`dirigente${serial}@scuola.it`)).toBeUndefined();
  });

  it('without `verifiedPerson` the pending identity of the browser changes nothing', async () => {
    const { c } = await verifiedBrowser();
    const { verificationId, phone } = await verifiedPhone(c);
    const school = await newInstitute();
    expect(
      (await c.post('/api/enrolments', body(verificationId, phone, school.id, school.siteId))).statusCode,
    ).toBe(201);
    expect(await userByEmail(`dirigente${serial}@scuola.it`)).toMatchObject({
      firstName: 'Nome',
      taxCodeVerifiedSource: null,
    });
  });
});
