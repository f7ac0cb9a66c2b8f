import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRoutesStub, useActionData, type ActionFunctionArgs } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PermissionSubject } from '@portale/shared/auth';
import { cancelHandover, createHandover, type HandoverInvitation } from '@portale/shared/enrolment';
import type { InstituteDetail } from '@portale/shared/registry';
import { callApi } from '../../lib/api-client.ts';
import { text } from '../../lib/form-data.ts';
import { handoverAction, InstituteHandover } from './institute-handover.tsx';

vi.mock('../../lib/api-client.ts', async (original) => ({
  ...(await original<typeof import('../../lib/api-client.ts')>()),
  callApi: vi.fn(),
}));

const PRINCIPAL = { id: 7, firstName: 'Paola', lastName: 'Preside', email: 'paola@esempio.it' };
const staff: PermissionSubject = { id: 1, roles: ['sylla'], permissions: [] };
const principal: PermissionSubject = { id: 7, roles: ['school.principal'], permissions: [] };
const firstContact: PermissionSubject = { id: 8, roles: ['institute.first-contact'], permissions: [] };

const invitation = (overrides: Partial<HandoverInvitation>): HandoverInvitation => ({
  id: 3,
  role: 'school.principal',
  inviteeName: 'Nadia Nuova',
  inviteeEmail: 'nadia@esempio.it',
  state: 'in_attesa',
  expired: false,
  invitedBy: 'Sara Sylla',
  createdAt: '2026-09-01T08:00:00.000Z',
  expiresAt: '2026-10-01T08:00:00.000Z',
  decidedAt: null,
  ...overrides,
});

/** The section on the institute page's data, with the page's action for its two intents. */
function renderSection(
  user: PermissionSubject,
  items: HandoverInvitation[],
  adhesionState: InstituteDetail['adhesionState'] = 'attivo',
) {
  const institute = { principal: PRINCIPAL, adhesionState } as InstituteDetail;
  function Page() {
    const result = useActionData<Awaited<ReturnType<typeof handoverAction>>>();
    return <InstituteHandover institute={institute} items={items} user={user} result={result} />;
  }
  const action = async ({ request }: ActionFunctionArgs) => {
    const form = await request.formData();
    return handoverAction(text(form, 'intent'), form, 12);
  };
  const Stub = createRoutesStub([{ path: '/portale/istituti/12', Component: Page, action }]);
  render(<Stub initialEntries={['/portale/istituti/12']} />);
}

describe('a new principal or first contact (institute page, decision 047)', () => {
  afterEach(() => vi.clearAllMocks());

  it('staff name either role; the invitation is sent with what they typed and the answer is shown', async () => {
    vi.mocked(callApi).mockResolvedValue({
      invitation: invitation({}),
      message: 'Invito inviato a nadia@esempio.it: vale 30 giorni.',
    });
    renderSection(staff, []);
    const form = screen.getByRole('form', { name: 'Invita chi subentra' });
    expect(
      within(form)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual(['school.principal', 'institute.first-contact']);
    await userEvent.type(within(form).getByLabelText('Nome'), 'Nadia');
    await userEvent.type(within(form).getByLabelText('Cognome'), 'Nuova');
    await userEvent.type(within(form).getByLabelText('E-mail personale'), 'nadia@esempio.it');
    await userEvent.type(within(form).getByLabelText('Codice fiscale'), 'NVONDA80A41G388G');
    await userEvent.click(within(form).getByRole('button', { name: 'Invia l’invito' }));
    expect(await screen.findByText('Invito inviato a nadia@esempio.it: vale 30 giorni.')).toBeTruthy();
    expect(callApi).toHaveBeenCalledWith(createHandover, {
      params: { instituteId: 12 },
      body: {
        role: 'school.principal',
        firstName: 'Nadia',
        lastName: 'Nuova',
        email: 'nadia@esempio.it',
        taxCode: 'NVONDA80A41G388G',
      },
    });
  });

  it('the principal names only a first contact and cancels only a first contact’s invitation', async () => {
    vi.mocked(callApi).mockResolvedValue({
      invitation: invitation({ id: 4, role: 'institute.first-contact', state: 'annullato' }),
      message: 'Invito annullato: la persona non può più accettarlo.',
    });
    renderSection(principal, [
      invitation({ id: 3 }),
      invitation({ id: 4, role: 'institute.first-contact', inviteeName: 'Rita Regente' }),
    ]);
    const form = screen.getByRole('form', { name: 'Invita chi subentra' });
    expect(
      within(form)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual(['institute.first-contact']);
    expect(within(screen.getByText(/Nadia Nuova/).closest('tr')!).queryByRole('button')).toBeNull();
    await userEvent.click(
      within(screen.getByRole('row', { name: /Rita Regente ·/ })).getByRole('button', { name: /^Annulla/ }),
    );
    expect(await screen.findByText('Invito annullato: la persona non può più accettarlo.')).toBeTruthy();
    expect(callApi).toHaveBeenCalledWith(cancelHandover, { params: { instituteId: 12, invitationId: 4 } });
  });

  it('the first contact only reads; nobody invites for a withdrawn school', () => {
    renderSection(firstContact, [invitation({ expired: true })]);
    expect(screen.queryByRole('form', { name: 'Invita chi subentra' })).toBeNull();
    expect(within(screen.getByText(/Nadia Nuova/).closest('tr')!).getByText('Scaduto')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
    vi.clearAllMocks();
  });

  it('staff see no form for a withdrawn school', () => {
    renderSection(staff, [], 'ritirato');
    expect(screen.queryByRole('form', { name: 'Invita chi subentra' })).toBeNull();
  });
});
