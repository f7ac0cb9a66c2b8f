import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { ExportFormatSchema } from '../lists/list-query.ts';
import { IdParamSchema } from '../validation/index.ts';
import {
  EnrolmentBodySchema,
  EnrolmentCreatedSchema,
  EnrolmentInvitationDecisionSchema,
  EnrolmentInvitationListSchema,
  EnrolmentInstituteSchema,
  EnrolmentInstituteSearchQuerySchema,
  EnrolmentInstituteSearchResponseSchema,
  EnrolmentVerificationSchema,
  HandoverBodySchema,
  HandoverListSchema,
  HandoverResultSchema,
  StaffInvitationActionResultSchema,
  StaffInvitationFiltersSchema,
  StaffInvitationListQuerySchema,
  StaffInvitationListResponseSchema,
} from './enrolment.schemas.ts';

/**
 * Contracts of the school enrolment (`/iscrizioni/iscrizione`, issue 9). All public: the applicant
 * has no account yet; the verified phone (its verification id) is the credential of the submission.
 * The search and the institute read only public registry data, rate limited per IP.
 */

export const searchEnrolmentInstitutes = defineEndpoint({
  method: 'GET',
  path: '/api/enrolments/institutes',
  permission: 'public',
  tag: 'enrolment',
  summary: 'Cerca un istituto da iscrivere per codice meccanografico o nome (al massimo 20)',
  query: EnrolmentInstituteSearchQuerySchema,
  response: EnrolmentInstituteSearchResponseSchema,
});

export const getEnrolmentInstitute = defineEndpoint({
  method: 'GET',
  path: '/api/enrolments/institutes/:instituteId',
  permission: 'public',
  tag: 'enrolment',
  summary: 'Un istituto dell’anagrafe con i suoi plessi e lo stato di adesione',
  params: z.object({ instituteId: IdParamSchema }),
  response: EnrolmentInstituteSchema,
});

export const getEnrolmentVerification = defineEndpoint({
  method: 'GET',
  path: '/api/enrolments/verifications/:verificationId',
  permission: 'public',
  tag: 'enrolment',
  summary: 'Se la verifica del cellulare può ancora servire a un’iscrizione',
  params: z.object({ verificationId: z.string().uuid('Verifica non trovata.') }),
  response: EnrolmentVerificationSchema,
});

export const createEnrolment = defineEndpoint({
  method: 'POST',
  path: '/api/enrolments',
  permission: 'public',
  tag: 'enrolment',
  summary: 'Iscrive un istituto al programma (cellulare verificato, dirigente, referente, plessi)',
  body: EnrolmentBodySchema,
  response: EnrolmentCreatedSchema,
  status: 201,
});

const InvitationParams = z.object({ invitationId: IdParamSchema });

/**
 * The invitations of the signed-in account (issue 32): an enrolment that names an existing account
 * invites it; only its owner sees, accepts or declines the invitation (someone else's: 403).
 */
export const listEnrolmentInvitations = defineEndpoint({
  method: 'GET',
  path: '/api/enrolment-invitations',
  permission: 'signed-in',
  tag: 'enrolment',
  summary: 'Gli inviti in attesa del proprio account a collegarsi a un istituto iscritto',
  response: EnrolmentInvitationListSchema,
});

export const acceptEnrolmentInvitation = defineEndpoint({
  method: 'POST',
  path: '/api/enrolment-invitations/:invitationId/accept',
  permission: 'signed-in',
  tag: 'enrolment',
  summary:
    'Accetta un invito: il ruolo arriva solo se il codice fiscale dell’iscrizione è quello dell’account',
  params: InvitationParams,
  response: EnrolmentInvitationDecisionSchema,
});

export const declineEnrolmentInvitation = defineEndpoint({
  method: 'POST',
  path: '/api/enrolment-invitations/:invitationId/decline',
  permission: 'signed-in',
  tag: 'enrolment',
  summary: 'Rifiuta un invito a collegarsi a un istituto',
  params: InvitationParams,
  response: EnrolmentInvitationDecisionSchema,
});

/**
 * Staff follow every invitation (issue 32): the adhesions panel's readers list and export them
 * (`read:`/`export:adhesion`, so `user.index` too); those who manage adhesions (super-admin, Sylla,
 * cromos) send a pending one again (a new e-mail, 30 more days) or cancel it. Audited.
 */
export const listStaffEnrolmentInvitations = defineEndpoint({
  method: 'GET',
  path: '/api/enrolment-invitations/staff',
  permission: 'read:adhesion',
  tag: 'enrolment',
  summary: 'Tutti gli inviti di iscrizione (staff): ricerca, filtri, ordinamento e pagine',
  query: StaffInvitationListQuerySchema,
  response: StaffInvitationListResponseSchema,
});

export const exportStaffEnrolmentInvitations = defineEndpoint({
  method: 'GET',
  path: '/api/enrolment-invitations/staff/export',
  permission: 'export:adhesion',
  tag: 'enrolment',
  summary: 'Esporta gli inviti di iscrizione filtrati (CSV o XLSX)',
  query: StaffInvitationFiltersSchema.extend(ExportFormatSchema.shape),
  response: z.string(),
  download: true,
});

export const resendEnrolmentInvitation = defineEndpoint({
  method: 'POST',
  path: '/api/enrolment-invitations/:invitationId/resend',
  permission: 'manage:adhesion',
  tag: 'enrolment',
  summary: 'Invia di nuovo un invito in attesa (nuova e-mail, scadenza spostata di 30 giorni)',
  params: InvitationParams,
  response: StaffInvitationActionResultSchema,
});

export const cancelEnrolmentInvitation = defineEndpoint({
  method: 'POST',
  path: '/api/enrolment-invitations/:invitationId/cancel',
  permission: 'manage:adhesion',
  tag: 'enrolment',
  summary: 'Annulla un invito in attesa: non potrà più essere accettato',
  params: InvitationParams,
  response: StaffInvitationActionResultSchema,
});

/**
 * Handovers (decision 047): a new principal or first contact is invited and replaces the holder when
 * they accept (`POST /api/enrolment-invitations/:id/accept`). Staff who manage institutes start and
 * cancel either; the principal of the institute, its first contact only. The institute's readers
 * (its principal and first contact, staff) see them.
 */
const InstituteParams = z.object({ instituteId: IdParamSchema });
const HandoverParams = z.object({ instituteId: IdParamSchema, invitationId: IdParamSchema });

export const listHandovers = defineEndpoint({
  method: 'GET',
  path: '/api/institutes/:instituteId/handovers',
  permission: 'read:institute',
  tag: 'enrolment',
  summary: 'Gli inviti a subentrare come dirigente o referente dell’istituto (in attesa e ultimi decisi)',
  params: InstituteParams,
  response: HandoverListSchema,
});

export const createHandover = defineEndpoint({
  method: 'POST',
  path: '/api/institutes/:instituteId/handovers',
  permission: 'manage:institute',
  tag: 'enrolment',
  summary: 'Invita un nuovo dirigente o referente, che subentra quando accetta',
  params: InstituteParams,
  body: HandoverBodySchema,
  response: HandoverResultSchema,
  status: 201,
});

export const cancelHandover = defineEndpoint({
  method: 'POST',
  path: '/api/institutes/:instituteId/handovers/:invitationId/cancel',
  permission: 'manage:institute',
  tag: 'enrolment',
  summary: 'Annulla un invito a subentrare ancora in attesa',
  params: HandoverParams,
  response: HandoverResultSchema,
});
