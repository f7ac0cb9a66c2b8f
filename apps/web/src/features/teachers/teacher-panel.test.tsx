import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLoaderData } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@portale/shared/auth';
import { decideTeacherHeldResponses, type TeacherDetail } from '@portale/shared/teachers';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { useSession } from '../../lib/session.ts';
import { renderRoute } from '../../test/render-route.tsx';
import { TeacherPanel } from './teacher-panel.tsx';
import { action } from './teacher-list-page.tsx';

vi.mock('../../lib/session.ts', () => ({ useSession: vi.fn() }));
vi.mock('../../lib/api-client.ts', async (original) => ({
  ...(await original<typeof import('../../lib/api-client.ts')>()),
  callApi: vi.fn(),
}));

afterEach(() => vi.mocked(callApi).mockReset());

const TEACHER = {
  id: 5,
  userId: 50,
  firstName: 'Rita',
  lastName: 'Respinta',
  email: 'rita@esempio.it',
  emailVerifiedAt: '2026-09-01T08:00:00.000Z',
  phone: null,
  phoneVerifiedAt: null,
  kind: 'insegnante',
  reviewState: 'respinta',
  userStatus: 'active',
  schoolSiteId: null,
  schoolSiteName: null,
  schoolSiteCode: null,
  municipalityName: null,
  province: null,
  region: null,
  instituteId: null,
  instituteName: null,
  instituteCode: null,
  subjects: [],
  createdAt: '2026-09-01T08:00:00.000Z',
  lastLoginAt: null,
  heldResponses: 3,
} as unknown as TeacherDetail;

/**
 * Kind: a widget with a fetcher. The held answers' decision posts to the teachers page's own action
 * (`intent=held-responses`); the router then reloads the page's data, so the count is the server's.
 */
function renderPanel(held: () => number) {
  vi.mocked(useSession).mockReturnValue({
    user: { id: 1, roles: ['sylla'], permissions: [] } as unknown as SessionUser,
    loggedIn: true,
    strategy: 'local',
    busy: false,
  });
  function Page() {
    const teacher = useLoaderData<TeacherDetail>();
    return <TeacherPanel teacher={teacher} closeHref="/portale/insegnanti" />;
  }
  return renderRoute({
    path: '/portale/insegnanti',
    Component: Page,
    loader: () => ({ ...TEACHER, heldResponses: held() }),
    action,
  });
}

describe('teacher panel: held answers (widget with a fetcher)', () => {
  it('counts them again through the page action; the reloaded data shows none held', async () => {
    let held = 3;
    vi.mocked(callApi).mockImplementation(async () => {
      held = 0;
      return {
        decision: 'include',
        count: 3,
        message: '3 risposte sospese sono di nuovo conteggiate nei risultati.',
      };
    });
    const { searches } = renderPanel(() => held);
    const box = await screen.findByTestId('held-responses');
    expect(within(box).getByText(/3 risposte raccolte/)).toBeTruthy();
    await userEvent.click(within(box).getByRole('button', { name: 'Conteggia di nuovo nei risultati' }));
    // The status line is there from the start: wait for the action's answer in it.
    await vi.waitFor(() =>
      expect(within(box).getByRole('status').textContent).toBe(
        '3 risposte sospese sono di nuovo conteggiate nei risultati.',
      ),
    );
    expect(vi.mocked(callApi)).toHaveBeenCalledWith(decideTeacherHeldResponses, {
      params: { teacherId: 5 },
      body: { decision: 'include' },
    });
    // The router loaded the page's data again after the action: nothing is held any more.
    await vi.waitFor(() => expect(searches.length).toBe(2));
    await vi.waitFor(() => expect(within(box).queryByText(/risposte raccolte/)).toBeNull());
  });

  it('shows the API’s Italian refusal and keeps the answers held', async () => {
    vi.mocked(callApi).mockRejectedValue(
      new ApiError(409, 'Non ci sono risposte sospese per questo insegnante.'),
    );
    renderPanel(() => 2);
    const box = await screen.findByTestId('held-responses');
    await userEvent.click(within(box).getByRole('button', { name: 'Scarta le risposte' }));
    await vi.waitFor(() =>
      expect(within(box).getByRole('status').textContent).toBe(
        'Non ci sono risposte sospese per questo insegnante.',
      ),
    );
    expect(vi.mocked(callApi)).toHaveBeenCalledWith(decideTeacherHeldResponses, {
      params: { teacherId: 5 },
      body: { decision: 'discard' },
    });
    expect(within(box).getByText(/2 risposte raccolte/)).toBeTruthy();
  });
});
