import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRoutesStub } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { PendingIdentity } from '@portale/shared/identity';
import type { EnrolmentPageData } from './enrolment-actions.ts';
import { DetailsStep } from './enrolment-details-step.tsx';

const IDENTITY: PendingIdentity = {
  provider: 'spid',
  kind: 'register',
  firstName: 'Giulia',
  lastName: 'Verdi',
  taxCode: 'VRDGLI80C55H501X',
  accountEmailHint: null,
  email: 'giulia.verdi@example.it',
  phone: null,
  codeAvailable: false,
  expiresAt: '2026-11-29T10:00:00.000Z',
};

const data = (verifiedIdentity: PendingIdentity | null): Extract<EnrolmentPageData, { step: 'details' }> => ({
  step: 'details',
  verificationId: '6f1c2b1e-6d3b-4a51-9a47-2b5d2f0b7c11',
  verification: {
    status: 'usable',
    message: '',
    phoneMasked: '333 ••• 0001',
    usableUntil: '2026-11-29T11:00:00Z',
  },
  q: 'rodari',
  verifiedIdentity,
  institute: {
    id: 7,
    ministryCode: 'RMIC81200X',
    name: 'IC Gianni Rodari',
    type: 'Istituto Comprensivo',
    municipalityName: 'Roma',
    province: 'RM',
    adhesionState: 'nessuna',
    enrollable: true,
    address: null,
    schoolSites: [],
  },
});

function renderStep(verifiedIdentity: PendingIdentity | null) {
  const Stub = createRoutesStub([
    { path: '/iscrizione', Component: () => <DetailsStep data={data(verifiedIdentity)} /> },
  ]);
  render(<Stub initialEntries={['/iscrizione']} />);
}

const input = (id: string) => document.getElementById(id) as HTMLInputElement;
const hidden = () => document.querySelector<HTMLInputElement>('input[name="verifiedPerson"]')!.value;

describe('the enrolment’s people after SPID/CIE (component)', () => {
  it('the verified person is the principal by default, or the first contact, or nobody', async () => {
    const user = userEvent.setup();
    renderStep(IDENTITY);
    expect(
      screen.getByRole('group', { name: /Chi sei tu\? \(Giulia Verdi, identità verificata con SPID\)/ }),
    ).toBeTruthy();
    expect(input('principal-firstName').value).toBe('Giulia');
    expect(input('principal-firstName').readOnly).toBe(true);
    expect(input('principal-taxCode').value).toBe('VRDGLI80C55H501X');
    expect(input('principal-email').value).toBe('giulia.verdi@example.it');
    expect(hidden()).toBe('principal');

    await user.click(screen.getByLabelText('Sono il referente d’istituto'));
    expect(hidden()).toBe('firstContact');
    expect(input('firstContact-lastName').value).toBe('Verdi');
    expect(input('principal-firstName').value).toBe('');
    expect(input('principal-firstName').readOnly).toBe(false);

    // The first contact is the principal: the verified person is then the principal.
    await user.click(screen.getByLabelText('Il referente è il dirigente'));
    expect(hidden()).toBe('principal');

    await user.click(screen.getByLabelText('Nessuno dei due: inserisco i dati a mano'));
    expect(hidden()).toBe('');
    expect(input('principal-firstName').readOnly).toBe(false);
  });

  it('without a verified identity nothing is asked', () => {
    renderStep(null);
    expect(screen.queryByText(/Chi sei tu\?/)).toBeNull();
    expect(hidden()).toBe('');
    expect(input('principal-firstName').value).toBe('');
  });
});
