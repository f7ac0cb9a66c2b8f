import { describe, expect, it } from 'vitest';
import { DETECTOR_API_PATTERN } from './cached-api.ts';

const api = 'http://localhost:8000';

describe('the API answers the service worker keeps for offline use', () => {
  it('matches the GETs behind the detector pages, on any API origin', () => {
    for (const path of [
      '/api/auth/me',
      '/api/detectors/me/school-sites',
      '/api/detectors/me/school-sites?page=2&q=verdi',
      '/api/detectors/me/school-sites/42',
      '/api/detectors/me/visits',
      '/api/school-sites/42/teachers',
      '/api/school-sites/42/visits',
      '/api/portal/pages/portal.detector-sites',
      '/api/portal/pages/portal.site-visits',
    ]) {
      expect(DETECTOR_API_PATTERN.test(`${api}${path}`), path).toBe(true);
      expect(DETECTOR_API_PATTERN.test(`https://api.portale.example${path}`), path).toBe(true);
    }
  });

  it('matches nothing else: exports, staff lists, other features, other pages', () => {
    for (const path of [
      '/api/detectors/me/school-sites/export',
      '/api/detectors',
      '/api/detectors/12',
      '/api/school-sites/42',
      '/api/school-sites/42/visits/export',
      '/api/visits/3/calendar.ics',
      '/api/visits/3/report',
      '/api/users',
      '/api/portal/pages/portal.users',
      '/api/auth/refresh',
      '/portale/istituti/rilevatori/plessi',
    ]) {
      expect(DETECTOR_API_PATTERN.test(`${api}${path}`), path).toBe(false);
    }
  });
});
