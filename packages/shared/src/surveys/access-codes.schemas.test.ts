import { describe, expect, it } from 'vitest';
import { isValidToken } from '../pages/index.ts';
import {
  ACCESS_CODE_MESSAGES,
  ACCESS_CODE_RESERVED,
  AccessCodeFiltersSchema,
  AccessCodeInputSchema,
  AccessCodeSheetQuerySchema,
  ACCESS_CODE_SHEET_MAX,
  isAccessCodeShape,
} from './access-codes.schemas.ts';
import {
  ACCESS_CODE_ALPHABET,
  ACCESS_CODE_MAX_USES,
  ACCESS_CODES_PER_REQUEST_MAX,
  DEMO_ACCESS_CODE,
} from './survey.constants.ts';

const valid = { surveyId: 2, classLabel: ' 3ª B ', count: '5', maxUses: 25, expiresOn: '2026-12-31' };
const errorsOf = (input: unknown) => {
  const result = AccessCodeInputSchema.safeParse(input);
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe('access code shape (seed-spec §5)', () => {
  it('is exactly 7 letters or digits, case-sensitive, the same rule as the route table', () => {
    for (const code of [DEMO_ACCESS_CODE, 'abc1234', 'ZZZZZZZ', '0000000'])
      expect(isAccessCodeShape(code), code).toBe(true);
    for (const code of ['abc', 'abc-123', 'abcdefgh', 'àbc1234', 'abc 123', ''])
      expect(isAccessCodeShape(code), code).toBe(false);
    for (const code of [DEMO_ACCESS_CODE, 'abc', 'abc-123', 'abcdefgh', 'abc1234'])
      expect(isAccessCodeShape(code)).toBe(isValidToken(code));
    // New codes: capitals and digits a person can read aloud and type (no I/L/1, O/0; decision 037).
    expect(ACCESS_CODE_ALPHABET).toHaveLength(31);
    for (const c of 'ILO01il') expect(ACCESS_CODE_ALPHABET).not.toContain(c);
    expect(ACCESS_CODE_ALPHABET).toBe(ACCESS_CODE_ALPHABET.toUpperCase());
    // The reserved words are well-formed: the API and the web must treat them as unknown codes.
    for (const word of ACCESS_CODE_RESERVED.filter((w) => w.length === 7))
      expect(isAccessCodeShape(word)).toBe(true);
  });
});

describe('AccessCodeInputSchema', () => {
  it('accepts the form as typed (numbers as text, class trimmed)', () => {
    expect(AccessCodeInputSchema.parse(valid)).toEqual({
      surveyId: 2,
      classLabel: '3ª B',
      count: 5,
      maxUses: 25,
      expiresOn: '2026-12-31',
    });
    expect(AccessCodeInputSchema.parse({ ...valid, schoolSiteId: '' })).not.toHaveProperty(
      'schoolSiteId',
      '',
    );
  });

  it('refuses each field with its Italian message', () => {
    expect(
      errorsOf({
        ...valid,
        count: 0,
        maxUses: ACCESS_CODE_MAX_USES + 1,
        classLabel: '   ',
        expiresOn: '2026-02-30',
      }),
    ).toEqual({
      count: ACCESS_CODE_MESSAGES.count,
      maxUses: ACCESS_CODE_MESSAGES.maxUses,
      classLabel: ACCESS_CODE_MESSAGES.classLabel,
      expiresOn: ACCESS_CODE_MESSAGES.expiresOn,
    });
    expect(errorsOf({ ...valid, count: ACCESS_CODES_PER_REQUEST_MAX + 1 })).toEqual({
      count: ACCESS_CODE_MESSAGES.count,
    });
    expect(errorsOf({ ...valid, count: 1.5 })).toEqual({ count: ACCESS_CODE_MESSAGES.count });
    expect(errorsOf({ ...valid, surveyId: 'x' })).toEqual({ surveyId: ACCESS_CODE_MESSAGES.survey });
    expect(errorsOf({ ...valid, classLabel: 'x'.repeat(41) })).toEqual({
      classLabel: ACCESS_CODE_MESSAGES.classLabel,
    });
  });
});

describe('list and sheet queries', () => {
  it('filters by state from a closed list', () => {
    expect(AccessCodeFiltersSchema.parse({ state: 'usable', sort: '-uses' })).toMatchObject({
      state: 'usable',
      sort: { column: 'uses', direction: 'desc' },
    });
    expect(AccessCodeFiltersSchema.safeParse({ state: 'altro' }).success).toBe(false);
    expect(AccessCodeFiltersSchema.safeParse({ sort: 'owner' }).success).toBe(false);
  });

  it('reads the ids of a sheet, de-duplicated and bounded', () => {
    expect(AccessCodeSheetQuerySchema.parse({ ids: '3,1,3' })).toEqual({ ids: [3, 1] });
    for (const ids of [
      '',
      'a',
      '1,,2',
      '0',
      '1;2',
      Array.from({ length: ACCESS_CODE_SHEET_MAX + 1 }, (_, i) => i + 1).join(','),
    ]) {
      expect(AccessCodeSheetQuerySchema.safeParse({ ids }).success, ids.slice(0, 20)).toBe(false);
    }
  });
});
