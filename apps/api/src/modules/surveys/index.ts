// The face of modules/surveys: what other modules may import from it (decision 044). Nothing else leaves it.
export { revokeAndHoldTeacherCodes } from './access-codes.repository.ts';
export { findQuestions } from './surveys.repository.ts';
export { ACCESS_CODE_SHEET_TEMPLATE_KEY, SURVEYS_TEMPLATES } from './surveys.templates.ts';
