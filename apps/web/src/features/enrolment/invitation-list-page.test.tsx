import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRoutesStub, type LoaderFunctionArgs } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@portale/shared/auth';
import { resendEnrolmentInvitation, type StaffEnrolmentInvitation } from '@portale/shared/enrolment';
import { callApi } from '../../lib/api-client.ts';
import { useSession } from '../../lib/session.ts';
import { action, Component } from './invitation-list-page.tsx';

vi.mock('../../lib/session.ts', () => ({ useSession: vi.fn() }));
vi.mock('../../lib/api-client.ts', async (original) => ({
  ...(await original<typeof import('../../lib/api-client.ts')>()),
  callApi: vi.fn(),
}));

const asUser = (roles: string[], permissions: string[] = []) =>
  vi.mocked(useSession).mockReturnValue({
    user: { id: 1, roles, permissions } as unknown as SessionUser,
    loggedIn: true,
    strategy: 'local',
    busy: false,
  });

/** The staff list of invitations (kind: list with row actions), on its loader's data, without a server. */
function renderPage(items: StaffEnrolmentInvitation[], url = '/portale/adesioni/inviti') {
  const searches: string[] = [];
  const loader = ({ request }: LoaderFunctionArgs) => {
    const search = new URL(request.url).searchParams;
    searches.push(search.toString());
    return {
      query: Object.fromEntries(search),
      result: { items, total: items.length, page: 1, pageSize: 25 },
      problem: null,
    };
  };
  const Stub = createRoutesStub([{ path: '/portale/adesioni/inviti', Component, loader, action }]);
  render(<Stub initialEntries={[url]} />);
  return { searches };
}

const PENDING: StaffEnrolmentInvitation = {
  id: 5,
  kind: 'iscrizione',
  instituteId: 9,
  ministryCode: 'RMIC8AB00X',
  instituteName: 'IC Gianni Rodari',
  userId: 12,
  inviteeName: 'Paola Rossi',
  inviteeEmail: 'paola.rossi@example.com',
  roles: ['school.principal'],
  state: 'in_attesa',
  expired: true,
  createdAt: '2026-10-01T10:00:00.000Z',
  expiresAt: '2026-10-31T10:00:00.000Z',
  decidedAt: null,
};
const ACCEPTED: StaffEnrolmentInvitation = {
  ...PENDING,
  id: 6,
  inviteeName: 'Marco Bianchi',
  state: 'accettato',
  expired: false,
  decidedAt: '2026-10-02T10:00:00.000Z',
};

describe('enrolment invitations page (component)', () => {
  beforeEach(() => asUser(['sylla']));
  afterEach(() => vi.clearAllMocks());

  it('shows each invitation with its state; a filter goes into the URL that the loader reads', async () => {
    const { searches } = renderPage([PENDING, ACCEPTED]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Inviti di iscrizione' })).toBeTruthy();
    const pending = screen.getByText('Paola Rossi').closest('tr')!;
    expect(within(pending).getByText('Scaduto')).toBeTruthy();
    expect(within(pending).getByText('Dirigente scolastico')).toBeTruthy();
    expect(
      within(pending).getByRole('button', {
        name: 'Invia di nuovo l’invito a Paola Rossi, IC Gianni Rodari',
      }),
    ).toBeTruthy();
    // A decided invitation has nothing left to do.
    expect(within(screen.getByText('Marco Bianchi').closest('tr')!).queryByRole('button')).toBeNull();
    const filters = screen.getByLabelText('Cerca negli inviti');
    await userEvent.selectOptions(within(filters).getByLabelText('Stato'), 'in_attesa');
    await userEvent.click(within(filters).getByRole('button', { name: 'Applica i filtri' }));
    await vi.waitFor(() => expect(searches.at(-1)).toBe('state=in_attesa'));
  });

  it('sends an invitation again and says so', async () => {
    vi.mocked(callApi).mockResolvedValue({
      invitation: { ...PENDING, expired: false },
      message: 'Invito inviato di nuovo a paola.rossi@example.com: vale altri 30 giorni.',
    });
    renderPage([PENDING]);
    await userEvent.click(await screen.findByRole('button', { name: /^Invia di nuovo/ }));
    expect(
      await screen.findByText('Invito inviato di nuovo a paola.rossi@example.com: vale altri 30 giorni.'),
    ).toHaveProperty('role', 'status');
    expect(callApi).toHaveBeenCalledWith(resendEnrolmentInvitation, { params: { invitationId: 5 } });
  });

  it('asks before cancelling, and sends nothing when the answer is no', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    renderPage([PENDING]);
    await userEvent.click(await screen.findByRole('button', { name: /^Annulla l’invito/ }));
    expect(confirm).toHaveBeenCalledWith(
      'Annullare l’invito a Paola Rossi, IC Gianni Rodari? La persona non potrà più accettarlo.',
    );
    expect(callApi).not.toHaveBeenCalled();
  });

  it('a reader without the power to manage adhesions (user.index) sees no actions', async () => {
    asUser([], ['user.index']);
    renderPage([PENDING]);
    const row = (await screen.findByText('Paola Rossi')).closest('tr')!;
    expect(within(row).queryByRole('button')).toBeNull();
  });
});
