// The face of modules/enrolment: what other modules may import from it (decision 044). Nothing else leaves it.
export { ENROLMENT_TEMPLATES } from './enrolment.templates.ts';
export { resendPendingInvitationsTo } from './enrolment-invitations.service.ts';
