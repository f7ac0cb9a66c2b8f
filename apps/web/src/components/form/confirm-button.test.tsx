import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ActionFunctionArgs } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { renderRoute } from '../../test/render-route.tsx';
import { ConfirmButton } from './confirm-button.tsx';

function renderButton() {
  const posted: Record<string, FormDataEntryValue>[] = [];
  const action = vi.fn(async ({ request }: ActionFunctionArgs) => {
    posted.push(Object.fromEntries(await request.formData()));
    return null;
  });
  renderRoute({
    path: '/',
    Component: () => (
      <ConfirmButton
        intent="suspend"
        fields={{ userId: '7' }}
        label="Sospendi"
        question="Sospendere Paola Rossi?"
        confirmLabel="Conferma: sospendi"
        testId="confirm-suspend"
      />
    ),
    action,
  });
  return { posted };
}

describe('ConfirmButton', () => {
  it('asks first, focuses the question, and Annulla gives the focus back to the opener', async () => {
    renderButton();
    await userEvent.click(await screen.findByRole('button', { name: 'Sospendi' }));
    const group = screen.getByRole('group', { name: 'Sospendere Paola Rossi?' });
    expect(document.activeElement).toBe(group);
    await userEvent.click(screen.getByRole('button', { name: 'Annulla' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Sospendi' }));
  });

  it('posts its intent and fields to the page action only once confirmed', async () => {
    const { posted } = renderButton();
    await userEvent.click(await screen.findByRole('button', { name: 'Sospendi' }));
    expect(posted).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Conferma: sospendi' }));
    await vi.waitFor(() => expect(posted).toEqual([{ intent: 'suspend', userId: '7' }]));
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Sospendi' })).toBeTruthy());
  });
});
