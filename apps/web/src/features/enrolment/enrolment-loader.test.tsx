import { afterEach, describe, expect, it, vi } from 'vitest';
import { getEnrolmentInstitute, getEnrolmentVerification } from '@portale/shared/enrolment';
import { pendingIdentity } from '@portale/shared/identity';
import { callApi } from '../../lib/api-client.ts';
import { rememberPendingIdentity } from '../../lib/identity-marks.ts';
import { INSTITUTE_PARAM, loader, VERIFY_PARAM } from './enrolment-actions.ts';

vi.mock('../../lib/api-client.ts', async (original) => ({
  ...(await original<typeof import('../../lib/api-client.ts')>()),
  callApi: vi.fn(),
}));

// The people step asks the API for this browser's verified identity only when one may be waiting:
// without SPID/CIE (or never used) there is no call, hence no 404 in the console.
const peopleStep = () =>
  loader({
    request: new Request(`http://web.test/iscrizioni/iscrizione?${VERIFY_PARAM}=v1&${INSTITUTE_PARAM}=7`),
    params: {},
    context: {},
  } as Parameters<typeof loader>[0]);

function answer(pending: unknown) {
  vi.mocked(callApi).mockImplementation(async (endpoint) => {
    if (endpoint === getEnrolmentVerification) return { status: 'usable' };
    if (endpoint === getEnrolmentInstitute) return { id: 7, name: 'IC Test' };
    if (endpoint === pendingIdentity) return pending;
    throw new Error('unexpected call');
  });
}

describe('the enrolment’s people step and the verified identity (loader)', () => {
  afterEach(() => {
    vi.mocked(callApi).mockReset();
    sessionStorage.clear();
  });

  it('does not ask for a pending identity when none was seen in this browser', async () => {
    answer(undefined);
    const data = await peopleStep();
    expect(data).toMatchObject({ step: 'details', verifiedIdentity: null });
    const asked = vi.mocked(callApi).mock.calls.map(([endpoint]) => endpoint);
    expect(asked).not.toContain(pendingIdentity);
  });

  it('asks for it after the result page saw one waiting, and uses it', async () => {
    rememberPendingIdentity(new Date(Date.now() + 600_000).toISOString());
    const pending = { kind: 'register', provider: 'cie', firstName: 'Giulia' };
    answer(pending);
    expect(await peopleStep()).toMatchObject({ step: 'details', verifiedIdentity: pending });
  });
});
