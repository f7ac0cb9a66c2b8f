// Makes sure Debian's Chromium is installed (tests never download a browser of their own).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

import { CHROMIUM_PATH as CHROMIUM } from './lib/chromium.mjs';
// The metric-matched fallback of the web font (apps/web/src/styles/fonts.css) is Arial's metrics, which
// Liberation Sans has: without it Chromium falls back to DejaVu Sans and the fallback test's layout moves.
const FALLBACK_FONT = '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf';
if (!existsSync(CHROMIUM) || !existsSync(FALLBACK_FONT)) {
  if (process.getuid?.() !== 0) {
    console.error(`Chromium (${CHROMIUM}) o i font Liberation non trovati: installali con "sudo apt-get install -y chromium fonts-liberation".`);
    process.exit(1);
  }
  console.log('Installazione di Chromium e dei font Liberation (apt)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium', 'fonts-liberation']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}
