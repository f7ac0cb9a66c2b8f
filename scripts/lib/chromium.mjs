// Debian's Chromium, as every test and benchmark drives it: never a browser a tool downloads itself.
// The flags keep it headless-friendly and quiet on these machines (no GPU, no network of its own).
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
