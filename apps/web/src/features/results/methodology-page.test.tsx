import { render, screen } from '@testing-library/react';
import { createRoutesStub } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Component } from './methodology-page.tsx';

/** The public methodology (decision 035): the threshold in force, the flag, every protection named. */
describe('results methodology page (component)', () => {
  it('says the threshold in force, the legal floor and the flag c, in plain Italian', async () => {
    const Stub = createRoutesStub([
      {
        path: '/risultati/metodologia',
        Component,
        handle: { pageId: 'results.methodology' },
        loader: () => ({
          minGroup: 4,
          legalFloor: 3,
          flag: 'c',
          earlierWaves: 3,
          path: '/risultati/metodologia',
        }),
      },
    ]);
    render(<Stub initialEntries={['/risultati/metodologia']} />);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Come proteggiamo i risultati' }),
    ).toBeTruthy();
    expect(screen.getByTestId('methodology-threshold').textContent).toBe(
      'La soglia in uso è 4: non pubblichiamo gruppi né numeri di persone minori di 4. La soglia non può essere minore di 3.',
    );
    for (const heading of ['Che cosa non pubblichiamo', 'Come riconoscere un dato protetto'])
      expect(screen.getByRole('heading', { level: 2, name: heading })).toBeTruthy();
    for (const text of ['Risposte quasi unanimi.', 'Domande a scelta multipla.', 'Indagini ripetute.', '«c»'])
      expect(screen.getAllByText(text, { exact: false }).length).toBeGreaterThan(0);
  });
});
