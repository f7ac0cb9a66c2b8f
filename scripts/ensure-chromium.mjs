// Makes sure Debian's Chromium is installed (tests never download a browser of their own).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

import { CHROMIUM_PATH as CHROMIUM } from './lib/chromium.mjs';
if (!existsSync(CHROMIUM)) {
  if (process.getuid?.() !== 0) {
    console.error(`Chromium non trovato in ${CHROMIUM}: installalo con "sudo apt-get install -y chromium".`);
    process.exit(1);
  }
  console.log('Installazione di Chromium (apt)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}
