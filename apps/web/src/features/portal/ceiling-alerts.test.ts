import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CeilingAlerts } from './ceiling-alerts.tsx';

describe('the super-admin’s note of the hourly ceilings reached', () => {
  it('says which ceiling, when, the figure and what happened past it', () => {
    const html = renderToStaticMarkup(
      createElement(CeilingAlerts, {
        alerts: [
          {
            ceiling: 'sms',
            label: 'codici via SMS',
            max: 600,
            past: 'refuse',
            consequence: 'I codici via SMS a nuovi numeri sono stati rifiutati fino alla fine dell’ora.',
            reachedAt: '2026-11-21T09:42:00.000Z',
          },
        ],
      }),
    );
    expect(html).toContain('Limiti orari del portale raggiunti nelle ultime 24 ore');
    expect(html).toContain(
      'codici via SMS, oltre 600 in un’ora. I codici via SMS a nuovi numeri sono stati rifiutati',
    );
    expect(html).toContain('role="status"');
  });

  it('shows nothing when no ceiling was reached', () => {
    expect(renderToStaticMarkup(createElement(CeilingAlerts, { alerts: [] }))).toBe('');
  });
});
