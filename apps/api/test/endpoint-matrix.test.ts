// Every contract × every demo account: the API answers what `can()` and the seed's portal conditions
// say, before it looks at the input. New contracts join the walk by being listed in CONTRACT_MODULES.
//
// - A permission check: a guest gets 401 and each account what `can()` and the portal conditions say.
// - 'signed-in' / 'signed-in-pending-password': a guest gets 401; every demo account gets past the
//   guard (never 401/403), except that 'signed-in' refuses a pending password change (403). Their
//   body is sent with an undeclared field (400 unknown_field): the guard is passed, nothing is written
//   and nothing is sent (deletion request e-mail, SMS).
// - 'public': a guest is never refused for lack of a session (not 401/403). They are called as a guest
//   only (a signed-in call to logout would end the matrix's own session), with an empty body, which
//   the costly ones (SMS, e-mails, registrations, contact) refuse with 422 before sending anything;
//   each guest comes from a new address, so no per-IP limit is reached.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as accounts from '@portale/shared/accounts';
import * as actions from '@portale/shared/actions';
import * as accountsPassword from '@portale/shared/accounts/password';
import * as adhesions from '@portale/shared/adhesions';
import * as bookings from '@portale/shared/bookings';
import * as documents from '@portale/shared/documents';
import { can, canSome, MeResponseSchema, type PermissionCheck, type SessionUser } from '@portale/shared/auth';
import * as dashboard from '@portale/shared/dashboard';
import * as enrolment from '@portale/shared/enrolment';
import * as fieldWork from '@portale/shared/field-work';
import * as http from '@portale/shared/http';
import * as identity from '@portale/shared/identity';
import * as map from '@portale/shared/map';
import * as progress from '@portale/shared/progress';
import { buildPath, isSessionPermission, type Endpoint } from '@portale/shared/http';
import { getPage, evaluateAccess, type PageId } from '@portale/shared/pages';
import * as publicSite from '@portale/shared/public';
import * as registry from '@portale/shared/registry';
import * as reviews from '@portale/shared/reviews';
import * as substitutions from '@portale/shared/substitutions';
import * as surveys from '@portale/shared/surveys';
import * as teachers from '@portale/shared/teachers';
import * as templates from '@portale/shared/templates';
import * as users from '@portale/shared/users';
import { DEMO_ACCOUNTS } from '../src/seed/seed.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp } from './http-client.ts';

const CONTRACT_MODULES: Record<string, unknown>[] = [
  registry,
  dashboard,
  users,
  teachers,
  accounts,
  accountsPassword,
  http,
  publicSite,
  map,
  progress,
  adhesions,
  enrolment,
  reviews,
  bookings,
  documents,
  fieldWork,
  surveys,
  templates,
  substitutions,
  actions,
  identity,
];
const isEndpoint = (value: unknown): value is Endpoint =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'response' in value;
const ENDPOINTS = [...new Set(CONTRACT_MODULES.flatMap((m) => Object.values(m).filter(isEndpoint)))];
const nameOf = (e: Endpoint) => `${e.method} ${e.path}`;

/** Query a list needs to be valid (the matrix is about who, not about what). */
const VALID_QUERY: Record<string, string> = {
  '/api/audit': 'entity=user&entityId=1',
  '/api/map/boundaries': 'layer=regioni',
  '/api/adhesions/reminders/preview': 'adhesionState=iscritto',
};
/** Checks a route makes on top of its contract's permission, for the input above. */
const ALSO_NEEDS: Record<string, PermissionCheck> = { '/api/audit': 'read:user' };
/** What an allowed caller gets for the input above when it is not 200: the empty body reaches validation. */
const WHEN_ALLOWED: Record<string, number> = {
  'POST /api/users': 422,
  'POST /api/adhesions/reminders': 422,
  'POST /api/booking-slots': 422,
  // Substitutions: the empty decision is refused before the request is looked up.
  'POST /api/substitutions/:substitutionId/decision': 422,
  // Surveys: the empty body is refused before the record is looked up; a participant's empty answers likewise.
  'POST /api/surveys': 422,
  'PUT /api/surveys/:surveyId/questions': 422,
  'POST /api/surveys/:surveyId/transition': 422,
  'POST /api/surveys/current/responses': 422,
  // Access codes: the empty body and the sheet without ids are refused before any plesso or code is looked up.
  'POST /api/access-codes': 422,
  'GET /api/access-codes/sheet.pdf': 422,
  // The upload's title and category are in the query, checked before the body.
  'POST /api/documents': 422,
  // The reason is checked before the record is looked up.
  'POST /api/institutes/:instituteId/adhesion/withdrawal': 422,
  // Field work: the empty body is refused before the record is looked up.
  'POST /api/school-site-assignments': 422,
  'POST /api/school-sites/:siteId/visits': 422,
  'POST /api/visits/:visitId/report': 422,
  'POST /api/visits/:visitId/outcome': 422,
  // The device's queue (issue 39): the empty body is refused before the detector is looked up.
  'PUT /api/detectors/:userId/device-queue': 422,
  // Staff import of exported drafts (issue 39): the empty body is refused before the detector is looked up.
  'POST /api/detectors/:userId/report-imports': 422,
  // Actions: the empty body is refused before the record is looked up.
  'POST /api/action-models': 422,
  'POST /api/actions/bulk/preview': 422,
  'POST /api/actions/bulk': 422,
  'POST /api/actions/:actionId/transition': 422,
  'POST /api/actions/:actionId/review': 422,
  // Teachers: the empty decision on held answers is refused before the teacher is looked up.
  'POST /api/teachers/:teacherId/held-responses': 422,
  // Handovers: the empty invitation is refused before the institute is looked up.
  'POST /api/institutes/:instituteId/handovers': 422,
  // Templates: the empty draft is refused before the key is looked up.
  'PUT /api/templates/:key': 422,
  'POST /api/templates/:key/preview': 422,
};
/** What a guest gets from a public endpoint when it is 401: the refresh cookie is its own credential. */
const GUEST_WITHOUT_CREDENTIAL: Record<string, number> = { 'POST /api/auth/refresh': 401 };
const UNKNOWN_ID = 987_654_321;
/** Endpoints whose record is the caller's own institute (as principal or first contact), found from the session. */
const OWN_INSTITUTE = /^\/api\/adhesions\/current(\/|$)/;
/** The caller's own collections (a detector's plessi and visits): an `:own` grant is enough. */
const OWN_COLLECTION =
  /^\/api\/detectors\/me\/(school-sites(\/export)?|visits)$|^\/api\/surveys\/current\/(responses|my-response)$|^\/api\/access-codes(\/export|\/options|\/sheet\.pdf)?$|^\/api\/actions(\/mine)?$/;
/** Substitutions: staff read them all, a principal or first contact their institute's (an `:own` grant is enough). */
const OWN_SUBSTITUTIONS = /^\/api\/substitutions(\/candidates)?$/;
/** A record named in the body (the plesso of a substitution request) or the headers (a tus photo upload's report): an `:own` grant reaches validation with the empty input. */
const OWN_BODY_RECORD: Record<string, number> = {
  'POST /api/substitutions': 422,
  // tus creation (decision 055): the report is named in Upload-Metadata, which the matrix does not send.
  'POST /api/report-photo-uploads': 422,
};
/** The guards of a page before its role rule: an endpoint with `conditionsOfPage` applies them instead of the portal's. */
const pageConditions = (pageId: PageId) => ({
  guards: getPage(pageId).guards.filter((g) => g !== 'has-role-or-permission'),
});
const PORTAL = {
  guards: ['auth', 'update-password', 'has-verified-all-contacts', 'sign-principal-document'] as const,
};

let t: TestApp;
const sessions = new Map<string, { client: ApiClient; user: SessionUser }>();

beforeAll(async () => {
  t = await buildTestApp();
  for (const account of DEMO_ACCOUNTS) {
    const client = new ApiClient(t, nextIp());
    await client.login(account.email);
    sessions.set(account.email, {
      client,
      user: MeResponseSchema.parse((await client.get('/api/auth/me')).json()).user,
    });
  }
}, 180_000);
afterAll(() => t.close());

function urlOf(endpoint: Endpoint): string {
  const path = buildPath(
    endpoint.path,
    Object.fromEntries([...endpoint.path.matchAll(/:(\w+)/g)].map((m) => [m[1]!, UNKNOWN_ID])),
  );
  const query = VALID_QUERY[endpoint.path];
  return query ? `${path}?${query}` : path;
}

it('walks every contract, and every contract states its permission', () => {
  expect(ENDPOINTS.length).toBeGreaterThanOrEqual(40);
  for (const endpoint of ENDPOINTS) expect(endpoint.permission, nameOf(endpoint)).toBeDefined();
});

async function asGuest(endpoint: Endpoint, payload: Record<string, unknown>, query = '') {
  const guest = new ApiClient(t, nextIp());
  await guest.csrf();
  const url = urlOf(endpoint);
  return guest.send(
    endpoint.method,
    query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url,
    endpoint.body ? { payload } : {},
  );
}

describe.each(ENDPOINTS.filter((e) => e.permission === 'public').map((e) => [nameOf(e), e] as const))(
  '%s (public)',
  (name, endpoint) => {
    it('a guest is never refused for lack of a session', async () => {
      const res = await asGuest(endpoint, {});
      const expected = GUEST_WITHOUT_CREDENTIAL[name];
      if (expected) expect(res.statusCode, res.body.slice(0, 120)).toBe(expected);
      else expect([401, 403], `${res.statusCode} ${res.body.slice(0, 120)}`).not.toContain(res.statusCode);
    });
  },
);

describe.each(ENDPOINTS.filter((e) => isSessionPermission(e.permission)).map((e) => [nameOf(e), e] as const))(
  '%s (signed-in)',
  (_name, endpoint) => {
    it('a guest gets 401 whatever the input', async () => {
      expect((await asGuest(endpoint, { x: 1 }, 'page=-1')).statusCode).toBe(401);
    });

    it('every demo account gets past the guard (a pending password change only where allowed)', async () => {
      for (const [email, { client, user }] of sessions) {
        const res = await client.send(
          endpoint.method,
          urlOf(endpoint),
          endpoint.body ? { payload: { notAField: 1 } } : {},
        );
        const refused = endpoint.permission === 'signed-in' && user.mustChangePassword;
        if (refused)
          expect(res.json(), email).toMatchObject({ statusCode: 403, code: 'password_change_required' });
        else
          expect([401, 403], `${email} ${res.statusCode} ${res.body.slice(0, 120)}`).not.toContain(
            res.statusCode,
          );
      }
    });
  },
);

describe.each(
  ENDPOINTS.filter((e) => e.permission !== 'public' && !isSessionPermission(e.permission)).map(
    (e) => [nameOf(e), e] as const,
  ),
)('%s', (_name, endpoint) => {
  const check = endpoint.permission as PermissionCheck;
  const hasRecord = endpoint.path.includes('/:');

  it('a guest gets 401 whatever the input', async () => {
    expect((await asGuest(endpoint, { x: 1 }, 'page=-1')).statusCode).toBe(401);
  });

  it('each demo account gets what can() and the portal conditions say', async () => {
    for (const [email, { client, user }] of sessions) {
      const res = await client.send(endpoint.method, urlOf(endpoint), endpoint.body ? { payload: {} } : {});
      const conditions =
        evaluateAccess(endpoint.conditionsOfPage ? pageConditions(endpoint.conditionsOfPage) : PORTAL, user)
          .kind === 'allow';
      if (OWN_INSTITUTE.test(endpoint.path) && conditions && canSome(user, check)) {
        // The caller's own institute: what follows depends on it (none: 404; its state: 409; the empty body: 422).
        expect([401, 403], `${email} ${res.statusCode} ${res.body.slice(0, 120)}`).not.toContain(
          res.statusCode,
        );
        continue;
      }
      if (OWN_BODY_RECORD[nameOf(endpoint)] && conditions && canSome(user, check)) {
        expect(res.statusCode, `${email} ${res.body.slice(0, 120)}`).toBe(OWN_BODY_RECORD[nameOf(endpoint)]);
        continue;
      }
      if (
        OWN_COLLECTION.test(endpoint.path) ||
        (OWN_SUBSTITUTIONS.test(endpoint.path) && endpoint.method === 'GET')
      ) {
        expect(res.statusCode, `${email} ${res.body.slice(0, 120)}`).toBe(
          conditions && canSome(user, check)
            ? (WHEN_ALLOWED[`${endpoint.method} ${endpoint.path}`] ?? 200)
            : 403,
        );
        continue;
      }
      // A record that does not exist: 404 for whoever may hold the grant on some record, 403 otherwise.
      const extra = ALSO_NEEDS[endpoint.path];
      const allowed = can(user, check) && (!extra || can(user, extra));
      const whenAllowed = WHEN_ALLOWED[`${endpoint.method} ${endpoint.path}`] ?? 200;
      const expected = !conditions
        ? 403
        : hasRecord
          ? canSome(user, check)
            ? (WHEN_ALLOWED[`${endpoint.method} ${endpoint.path}`] ?? 404)
            : 403
          : allowed
            ? whenAllowed
            : 403;
      expect(res.statusCode, `${email} ${res.body.slice(0, 120)}`).toBe(expected);
    }
  });
});
