// Transitional (issue 36): the field-work queries live in detectors.repository.ts,
// detector-sites.repository.ts and visits.repository.ts. teachers/teacher-approval.test.ts still
// imports `listSiteTeachers` from this path; once it imports detector-sites.repository.ts, delete this file.
export { listSiteTeachers } from './detector-sites.repository.ts';
