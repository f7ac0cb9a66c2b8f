import { render, screen } from '@testing-library/react';
import { createRoutesStub } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { ReviewDetail } from '@portale/shared/reviews';
import { ReviewItem } from './review-item.tsx';

// The photos load their own data: not this test's subject.
vi.mock('../field-work/visit-photos.tsx', () => ({ default: () => null }));

const visitItem = (openConflicts: number): ReviewDetail => ({
  id: 7,
  type: 'visite',
  subjectId: 41,
  title: 'Plesso Garibaldi',
  code: 'RMEE8AB01X',
  place: 'Roma (RM)',
  state: 'in_attesa',
  submittedAt: '2026-11-20T12:00:00.000Z',
  decidedAt: null,
  decidedBy: null,
  claimedBy: null,
  submissionId: null,
  note: null,
  fields: [],
  claimedUntil: null,
  history: [],
  content: {
    type: 'visite',
    visit: {
      id: 41,
      scheduledAt: '2026-11-20T09:00:00.000Z',
      reportedAt: '2026-11-20T12:00:00.000Z',
      report: 'Svolta dal nuovo rilevatore.',
      teachersMet: [],
      detector: { id: 6, firstName: 'Aldo', lastName: 'Altro', email: 'altro.rilevatore@demo.test' },
      schoolSite: {
        id: 3,
        name: 'Plesso Garibaldi',
        ministryCode: 'RMEE8AB01X',
        address: null,
        municipalityName: 'Roma',
        province: 'RM',
        instituteName: 'IC Garibaldi',
      },
      openConflicts,
    },
  },
});

function renderItem(item: ReviewDetail) {
  const Stub = createRoutesStub([{ path: '/', Component: () => <ReviewItem item={item} /> }]);
  render(<Stub initialEntries={['/']} />);
}

describe('a visit report under review (decision 061)', () => {
  it('says when another version of the visit waits as a conflict, with a link to it', () => {
    renderItem(visitItem(2));
    expect(screen.getByTestId('review-visit-conflicts').textContent).toContain(
      'Di questa visita sono arrivati anche altri 2 resoconti, conservati come conflitti',
    );
    expect(screen.getByRole('link', { name: 'Conflitti da risolvere' }).getAttribute('href')).toBe(
      '/portale/rilevatori/conflitti?q=RMEE8AB01X',
    );
  });

  it('says nothing when there is none', () => {
    renderItem(visitItem(0));
    expect(screen.queryByTestId('review-visit-conflicts')).toBeNull();
    expect(screen.getByTestId('review-visit-report').textContent).toBe('Svolta dal nuovo rilevatore.');
  });
});
