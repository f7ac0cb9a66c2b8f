import { removeWebSnapshot } from './web-snapshot.ts';

/** The servers are stopped by Playwright (webServer); this removes the private copy of the web build. */
export default function globalTeardown(): void {
  removeWebSnapshot(process.env.E2E_WEB_ROOT);
}
