// The face of modules/registry: what other modules may import from it (decision 044). Nothing else leaves it.
export {
  clearInstituteTotals,
  enrolledInstitute,
  findInstituteOwners,
  instituteFilterCondition,
  toInstituteSummary,
} from './institutes.repository.ts';
export { clearSchoolSiteTotals } from './school-sites.repository.ts';
