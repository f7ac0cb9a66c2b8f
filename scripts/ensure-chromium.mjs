// Makes sure the test browser, Debian's Chromium headless shell, is installed (tests never download a
// browser of their own), with the two PDF tools the PDF/A check runs (qpdf, poppler's pdffonts:
// apps/api/test/support/pdfa-check.ts). `--full` also installs the full `chromium` that benchmarks and
// Lighthouse drive.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

import { CHROMIUM_PATH, TEST_CHROMIUM_PATH } from './lib/chromium.mjs';
// The metric-matched fallback of the web font (apps/web/src/styles/fonts.css) is Arial's metrics, which
// Liberation Sans has: without it Chromium falls back to DejaVu Sans and the fallback test's layout moves.
const FALLBACK_FONT = '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf';
const wanted = [
  [TEST_CHROMIUM_PATH, 'chromium-headless-shell'],
  [FALLBACK_FONT, 'fonts-liberation'],
  ['/usr/bin/qpdf', 'qpdf'],
  ['/usr/bin/pdffonts', 'poppler-utils'],
  ...(process.argv.includes('--full') ? [[CHROMIUM_PATH, 'chromium']] : []),
];
const missing = wanted.filter(([path]) => !existsSync(path)).map(([, pkg]) => pkg);
if (missing.length > 0) {
  if (process.getuid?.() !== 0) {
    console.error(`Pacchetti mancanti: installali con "sudo apt-get install -y ${missing.join(' ')}".`);
    process.exit(1);
  }
  console.log(`Installazione di ${missing.join(', ')} (apt)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...missing],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}
