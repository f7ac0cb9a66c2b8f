import { describe, expect, it } from 'vitest';
import { canTransitionVisit, VISIT_STATES } from './field-work.constants.ts';
import { AssignmentBodySchema, VisitCreateSchema } from './field-work.schemas.ts';

describe('visit state machine (product §5)', () => {
  it('moves a planned visit to done, cancelled or missed, and nothing else anywhere', () => {
    const legal = VISIT_STATES.flatMap((from) =>
      VISIT_STATES.filter((to) => canTransitionVisit(from, to)).map((to) => `${from}→${to}`),
    );
    expect(legal).toEqual(['pianificata→svolta', 'pianificata→annullata', 'pianificata→mancata']);
  });
});

describe('field-work input', () => {
  it('a visit time is a real Rome wall-clock time', () => {
    expect(VisitCreateSchema.safeParse({ scheduledAt: '2026-12-03T10:30' }).success).toBe(true);
    expect(VisitCreateSchema.safeParse({ scheduledAt: '2026-02-30T10:30' }).success).toBe(false);
    expect(VisitCreateSchema.safeParse({ scheduledAt: '2026-12-03 10:30' }).success).toBe(false);
  });

  it('an assignment names either plessi or a filter, and a filter is never the whole country', () => {
    expect(AssignmentBodySchema.safeParse({ detectorUserId: 1, siteIds: [1], confirm: false }).success).toBe(
      true,
    );
    expect(
      AssignmentBodySchema.safeParse({ detectorUserId: null, filter: { province: 'PV' }, confirm: true })
        .success,
    ).toBe(true);
    expect(AssignmentBodySchema.safeParse({ detectorUserId: 1, confirm: false }).success).toBe(false);
    expect(
      AssignmentBodySchema.safeParse({
        detectorUserId: 1,
        siteIds: [1],
        filter: { province: 'PV' },
        confirm: false,
      }).success,
    ).toBe(false);
    expect(
      AssignmentBodySchema.safeParse({ detectorUserId: 1, filter: { participating: true }, confirm: false })
        .success,
    ).toBe(false);
  });
});
