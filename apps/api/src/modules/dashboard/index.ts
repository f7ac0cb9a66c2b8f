// The face of modules/dashboard: what other modules may import from it (decision 044). Nothing else leaves it.
export { registeredTeachers } from './dashboard.repository.ts';
