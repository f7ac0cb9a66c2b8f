import { describe, expect, it } from 'vitest';
import { listSummary } from './list-summary.tsx';

const nouns = { one: 'insegnante trovato', many: 'insegnanti trovati' };

describe('listSummary', () => {
  it('states an exact total as it is', () => {
    expect(listSummary({ total: 1709, page: 1, pageSize: 25 }, nouns)).toBe(
      '1.709 insegnanti trovati, pagina 1 di 69.',
    );
  });

  it('says «circa» for an estimated total and its page count (decision 033)', () => {
    expect(listSummary({ total: 201000, totalApproximate: true, page: 1, pageSize: 25 }, nouns)).toBe(
      'circa 201.000 insegnanti trovati, pagina 1 di circa 8.040.',
    );
  });
});
