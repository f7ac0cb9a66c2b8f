import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { RESULTS_MESSAGES, type QuestionResult } from '@portale/shared/surveys';
import { QuestionSection } from './results-question.tsx';

/** A chart's table twin (kind: figures shown as a chart and as a table), without a server or a canvas. */
beforeAll(() => {
  // jsdom has no IntersectionObserver: the chart, drawn when it comes near the view, stays undrawn here
  // (end-to-end tests draw it); its summary and table are what this test reads.
  globalThis.IntersectionObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
    takeRecords() {
      return [];
    }
  } as unknown as typeof IntersectionObserver;
});

const QUESTION: QuestionResult = {
  id: 3,
  position: 1,
  type: 'scelta_singola',
  label: 'La scuola ha una biblioteca?',
  rows: [
    { key: 'si', label: 'Sì', count: 12, percent: 70.6 },
    { key: 'no', label: 'No', count: null, percent: null },
  ],
  answered: null,
  mean: null,
  protectedRows: 1,
} as QuestionResult;

describe('results question (component)', () => {
  it('the table says what the chart shows; a protected cell points to its explanation and the total is withheld', () => {
    render(
      <MemoryRouter>
        <QuestionSection question={QUESTION} respondents={17} minGroup={5} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('results-summary').textContent).toBe(
      'La scuola ha una biblioteca? Risposte di 17 persone. La più scelta: «Sì», 12 (70,6%). Sì: 12. 1 risposta protetta.',
    );
    const table = screen.getByRole('table', { name: 'La scuola ha una biblioteca?: i dati del grafico' });
    const [yes, no] = within(table).getAllByRole('row').slice(1);
    expect(
      within(yes!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['12', '70,6%']);
    const hidden = within(no!).getAllByRole('cell')[0]!;
    expect(hidden.textContent).toBe(RESULTS_MESSAGES.protectedCell);
    expect(document.getElementById(hidden.getAttribute('aria-describedby')!)!.textContent).toContain(
      RESULTS_MESSAGES.protectedCellDetail(5),
    );
    // Decision 035: the flag "c", and every chart links the methodology.
    expect(hidden.textContent).toBe('c');
    expect(screen.getByTestId('results-methodology-link').getAttribute('href')).toBe(
      '/risultati/metodologia',
    );
    expect(within(table).queryByText('Totale risposte')).toBeNull();
  });
});
