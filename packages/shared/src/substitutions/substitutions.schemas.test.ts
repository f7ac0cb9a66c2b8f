import { describe, expect, it } from 'vitest';
import { canTransitionSubstitution } from './substitution.constants.ts';
import {
  romeToday,
  SUBSTITUTION_MESSAGES,
  SubstitutionCreateSchema,
  SubstitutionDecisionSchema,
} from './substitutions.schemas.ts';

const base = {
  schoolSiteId: '12',
  outgoingUserId: '34',
  reason: 'Trasferimento ad altra sede.',
  effectiveOn: '2026-12-01',
};

describe('substitution request', () => {
  it('takes an invited address with its name (lower case), or a teacher by id', () => {
    const invited = SubstitutionCreateSchema.parse({
      ...base,
      incomingEmail: ' Nuova@Esempio.IT ',
      incomingFirstName: 'Nadia',
      incomingLastName: 'Nuovi',
    });
    expect(invited).toMatchObject({
      schoolSiteId: 12,
      outgoingUserId: 34,
      incomingEmail: 'nuova@esempio.it',
    });
    expect(SubstitutionCreateSchema.parse({ ...base, incomingUserId: 56 }).incomingUserId).toBe(56);
  });

  it('needs exactly one incoming person, the name of an invited one, a real date', () => {
    const errors = (input: Record<string, unknown>) =>
      SubstitutionCreateSchema.safeParse(input).error?.flatten().fieldErrors ?? {};
    expect(errors(base).incomingEmail).toEqual([SUBSTITUTION_MESSAGES.incoming]);
    expect(
      errors({
        ...base,
        incomingUserId: 56,
        incomingEmail: 'a@b.it',
        incomingFirstName: 'A',
        incomingLastName: 'B',
      }).incomingEmail,
    ).toBeDefined();
    expect(Object.keys(errors({ ...base, incomingEmail: 'a@b.it' }))).toEqual([
      'incomingFirstName',
      'incomingLastName',
    ]);
    expect(errors({ ...base, incomingUserId: 34 }).incomingUserId).toEqual([
      SUBSTITUTION_MESSAGES.incomingSame,
    ]);
    expect(errors({ ...base, incomingUserId: 56, effectiveOn: '2026-02-30' }).effectiveOn).toEqual([
      SUBSTITUTION_MESSAGES.effectiveOn,
    ]);
    expect(
      errors({ ...base, incomingEmail: 'a@b.it', incomingFirstName: 'Rossi, Anna', incomingLastName: 'B' })
        .incomingFirstName,
    ).toBeDefined();
  });

  it('a rejection needs a note', () => {
    expect(
      SubstitutionDecisionSchema.safeParse({ decision: 'respinta', note: '  ' }).error?.flatten().fieldErrors
        .note,
    ).toEqual([SUBSTITUTION_MESSAGES.noteRequired]);
    expect(SubstitutionDecisionSchema.safeParse({ decision: 'approvata' }).success).toBe(true);
  });

  it('today is the Rome date; only a request is decided', () => {
    expect(romeToday(new Date('2026-11-21T23:30:00Z'))).toBe('2026-11-22');
    expect(romeToday(new Date('2026-07-01T21:59:00Z'))).toBe('2026-07-01');
    expect(canTransitionSubstitution('richiesta', 'approvata')).toBe(true);
    expect(canTransitionSubstitution('approvata', 'respinta')).toBe(false);
  });
});
