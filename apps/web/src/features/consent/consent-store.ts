import { useSyncExternalStore } from 'react';
import { recordConsent, type ConsentDecision } from '@portale/shared/public';
import { callApi } from '../../lib/api-client.ts';
import { applyAnalyticsConsent } from './analytics.ts';
import { CONSENT_CONFIG } from './consent-config.ts';
import { anonymousId, readStoredConsent, storeChoice } from './consent-cookies.ts';

export interface ConsentState {
  enabledIds: string[];
  bannerOpen: boolean;
  preferencesOpen: boolean;
  /** Increments on each choice, for the confirmation message. */
  choices: number;
}

let state: ConsentState = { enabledIds: [], bannerOpen: false, preferencesOpen: false, choices: 0 };
let started = false;
const listeners = new Set<() => void>();

function setState(patch: Partial<ConsentState>) {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

/** Reads the stored choice once per page load and applies it (analytics only if enabled). */
export function startConsent(): void {
  if (started) return;
  started = true;
  const stored = readStoredConsent();
  state = { ...state, enabledIds: stored.enabledIds, bannerOpen: stored.mustAsk };
  applyAnalyticsConsent(stored.enabledIds.includes('analitici'));
}

/**
 * Build time only (src/prerender.tsx): the banner as a first-time visitor sees it, for the variant of a
 * prerendered page that the static server sends to a browser with no valid choice (server/serve.mjs).
 */
export function prerenderConsentBanner(open: boolean): void {
  state = { ...state, bannerOpen: open };
}

async function recordProof(decision: ConsentDecision, enabledIds: string[], decidedAt: Date) {
  try {
    await callApi(recordConsent, {
      body: {
        anonymousId: anonymousId(),
        policyVersion: CONSENT_CONFIG.policyVersion,
        decision,
        enabledIds,
        decidedAt: decidedAt.toISOString(),
      },
    });
  } catch (error) {
    console.error('[consent] proof not recorded', error);
  }
}

/** Stores a choice, applies it and sends the proof to the API. */
export function decide(decision: ConsentDecision, enabledOptional: readonly string[] = []): Promise<void> {
  const optional =
    decision === 'accept_all' ? [...CONSENT_CONFIG.optional] : decision === 'reject' ? [] : enabledOptional;
  const now = new Date();
  const enabledIds = storeChoice(optional, now.getTime());
  setState({ enabledIds, bannerOpen: false, preferencesOpen: false, choices: state.choices + 1 });
  applyAnalyticsConsent(enabledIds.includes('analitici'));
  return recordProof(decision, enabledIds, now);
}

/**
 * Moves the focus to the page's main content (the layouts' `main#main-content`, focusable by script):
 * where a keyboard or screen reader user goes on after the banner, whose buttons are gone (issue 34).
 */
export function focusMainContent(): void {
  document.getElementById('main-content')?.focus();
}

export function openPreferences(): void {
  setState({ preferencesOpen: true });
}

export function closePreferences(): void {
  setState({ preferencesOpen: false });
}

export function useConsent(): ConsentState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
    () => state,
  );
}
