// Debian's Chromium, as every test and benchmark drives it: never a browser a tool downloads itself.
// The flags keep it headless-friendly and quiet on these machines (no GPU, no network of its own).

/** The full browser (`chromium`): benchmarks and Lighthouse, which measure what a visitor's browser does. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The test browser: Debian's `chromium-headless-shell`, the same Blink, V8 and axe-visible rendering
 * without the full browser's UI processes (a WebUI renderer per window, the tab strip): the end-to-end
 * suite ran a third faster and with 37 % less CPU on the 2-core machine (docs/decisions/031).
 */
export const TEST_CHROMIUM_PATH = process.env.E2E_CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
