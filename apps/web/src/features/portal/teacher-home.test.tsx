import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLoaderData } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ACCESS_CODE_MESSAGES,
  createAccessCodes,
  revokeAccessCode,
  type AccessCodeSummary,
} from '@portale/shared/surveys';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { INVALID_FORM_MESSAGE } from '../../lib/form-action.ts';
import { renderRoute } from '../../test/render-route.tsx';
import { action } from './portal-home-page.tsx';
import { TeacherHome, type TeacherHomeData } from './teacher-home.tsx';

vi.mock('../../lib/api-client.ts', async (original) => ({
  ...(await original<typeof import('../../lib/api-client.ts')>()),
  callApi: vi.fn(),
}));

afterEach(() => vi.mocked(callApi).mockReset());

const SURVEY = { id: 3, title: 'Indagine 2026/27', closesOn: '2027-05-31' };

const code = (id: number, value: string, extra: Partial<AccessCodeSummary> = {}): AccessCodeSummary => ({
  id,
  code: value,
  surveyId: SURVEY.id,
  surveyTitle: SURVEY.title,
  schoolSiteId: 7,
  schoolSiteName: 'Plesso Rodari',
  classLabel: '2ª A',
  ownerUserId: 50,
  ownerName: 'Rita Rossi',
  maxUses: 25,
  uses: 0,
  expiresAt: '2027-06-01T00:00:00.000Z',
  revokedAt: null,
  createdAt: '2026-11-20T09:00:00.000Z',
  state: 'usable',
  ...extra,
});

/** Nothing posted for the teacher's survey yet: the codes of one plesso, as the API lists them. */
const homeOf = (codes: AccessCodeSummary[]): TeacherHomeData => ({
  options: {
    surveys: [SURVEY],
    schoolSite: { id: 7, name: 'Plesso Rodari' },
    blockedReason: null,
    maxUses: 40,
  } as TeacherHomeData['options'],
  codes,
  total: codes.length,
  answeredAt: null,
  teacherSurvey: null,
});

/** The error text tied to a control by its aria-describedby. */
function errorOf(control: HTMLElement): string {
  const ids = (control.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter((id) => id.endsWith('-error'));
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

/**
 * Kind: a widget with a fetcher. Creating codes and revoking one post an `intent` to the portal home's
 * action (`teacher-codes-action.ts`); the router then reloads the page's data, which the home reads.
 */
function renderHome(codes: () => AccessCodeSummary[]) {
  const loads = vi.fn(() => homeOf(codes()));
  const view = renderRoute({
    path: '/portale',
    Component: function Page() {
      return <TeacherHome home={useLoaderData<TeacherHomeData>()} />;
    },
    loader: loads,
    action,
  });
  return { ...view, loads };
}

describe('teacher home: access codes (widget with a fetcher)', () => {
  it('creates codes through the page action; the reloaded list has them and the box offers to print', async () => {
    let codes = [code(1, 'Old0001')];
    const made = code(2, 'New0002', { classLabel: '3ª B' });
    vi.mocked(callApi).mockImplementation(async () => {
      codes = [made, ...codes];
      return { items: [made] };
    });
    const { loads } = renderHome(() => codes);
    const form = await screen.findByTestId('create-codes-form');
    await userEvent.type(within(form).getByLabelText('Classe'), '3ª B');
    await userEvent.click(within(form).getByRole('button', { name: 'Crea i codici' }));
    // The box lists only codes the reloaded list holds: it shows once the page's data came back.
    const box = await screen.findByTestId('codes-created');
    expect(box.textContent).toContain('Creato 1 codice per la classe 3ª B: New0002.');
    expect(within(box).getByRole('button', { name: 'Stampa i codici appena creati' })).toBeTruthy();
    expect(vi.mocked(callApi)).toHaveBeenCalledWith(createAccessCodes, {
      body: {
        surveyId: SURVEY.id,
        schoolSiteId: 7,
        classLabel: '3ª B',
        count: 1,
        maxUses: 25,
        expiresOn: SURVEY.closesOn,
      },
    });
    expect(loads).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId('code-New0002')).toBeTruthy();
    // A class done, the next one: the class field is empty again.
    await vi.waitFor(() =>
      expect((within(form).getByLabelText('Classe') as HTMLInputElement).value).toBe(''),
    );
  });

  it('refuses a form without the class next to the field, sending nothing', async () => {
    renderHome(() => []);
    const form = await screen.findByTestId('create-codes-form');
    await userEvent.click(within(form).getByRole('button', { name: 'Crea i codici' }));
    const label = within(form).getByLabelText('Classe');
    await vi.waitFor(() => expect(label.getAttribute('aria-invalid')).toBe('true'));
    expect(errorOf(label)).toBe(ACCESS_CODE_MESSAGES.classLabel);
    expect(within(form).getByRole('alert').textContent).toBe(INVALID_FORM_MESSAGE);
    expect(vi.mocked(callApi)).not.toHaveBeenCalled();
  });

  it('shows the API’s 422 on top and next to its field, and keeps what was typed', async () => {
    vi.mocked(callApi).mockRejectedValue(
      new ApiError(422, INVALID_FORM_MESSAGE, {
        errors: { maxUses: [ACCESS_CODE_MESSAGES.teacherMaxUses(40)] },
      }),
    );
    renderHome(() => []);
    const form = await screen.findByTestId('create-codes-form');
    await userEvent.type(within(form).getByLabelText('Classe'), '1ª C');
    const uses = within(form).getByLabelText('Utilizzi per codice');
    await userEvent.clear(uses);
    await userEvent.type(uses, '30');
    await userEvent.click(within(form).getByRole('button', { name: 'Crea i codici' }));
    await vi.waitFor(() => expect(uses.getAttribute('aria-invalid')).toBe('true'));
    expect(errorOf(uses)).toBe(ACCESS_CODE_MESSAGES.teacherMaxUses(40));
    expect(within(form).getByRole('alert').textContent).toBe(INVALID_FORM_MESSAGE);
    expect((within(form).getByLabelText('Classe') as HTMLInputElement).value).toBe('1ª C');
    expect(screen.queryByTestId('codes-created')).toBeNull();
  });

  it('revokes a code through the page action; the reloaded list says it is revoked', async () => {
    let codes = [code(1, 'Abc1234')];
    vi.mocked(callApi).mockImplementation(async () => {
      codes = [code(1, 'Abc1234', { state: 'revoked', revokedAt: '2026-11-29T09:00:00.000Z' })];
      return codes[0];
    });
    const { loads } = renderHome(() => codes);
    const row = await screen.findByTestId('code-Abc1234');
    await userEvent.click(within(row).getByRole('button', { name: 'Revoca il codice Abc1234' }));
    await userEvent.click(within(row).getByRole('button', { name: 'Sì, revoca Abc1234' }));
    await vi.waitFor(() =>
      expect(screen.getByTestId('codes-notice').textContent).toBe(
        'Il codice Abc1234 è stato revocato: non apre più il questionario.',
      ),
    );
    expect(vi.mocked(callApi)).toHaveBeenCalledWith(revokeAccessCode, { params: { id: 1 } });
    await vi.waitFor(() => expect(loads).toHaveBeenCalledTimes(2));
    await vi.waitFor(() => expect(within(row).getByText('Revocato')).toBeTruthy());
    expect(within(row).queryByRole('button', { name: /Revoca/ })).toBeNull();
  });

  it('shows the API’s refusal of a revocation in the notice, and the code stays usable', async () => {
    vi.mocked(callApi).mockRejectedValue(new ApiError(409, ACCESS_CODE_MESSAGES.alreadyRevoked));
    renderHome(() => [code(1, 'Abc1234')]);
    const row = await screen.findByTestId('code-Abc1234');
    await userEvent.click(within(row).getByRole('button', { name: 'Revoca il codice Abc1234' }));
    await userEvent.click(within(row).getByRole('button', { name: 'Sì, revoca Abc1234' }));
    await vi.waitFor(() =>
      expect(screen.getByTestId('codes-notice').textContent).toBe(ACCESS_CODE_MESSAGES.alreadyRevoked),
    );
    expect(within(row).getByText('Utilizzabile')).toBeTruthy();
  });
});
