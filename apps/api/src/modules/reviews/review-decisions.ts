import {
  REVIEW_DECISION_STATE,
  type ReviewDecision,
  type ReviewField,
  type ReviewType,
} from '@portale/shared/reviews';
import type { AdhesionState } from '@portale/shared/registry';
import type { Tx } from '../../db/transaction.ts';
import { auditWrite, type Actor } from '../../lib/audit.ts';
import { HttpError } from '../../lib/http-error.ts';
import { formatRomeDateTime } from '../../lib/format.ts';
import { transitionAdhesion } from '../adhesions/index.ts';
import { enqueueMessage, type TemplateKey } from '../messages/index.ts';
import * as repo from './reviews.repository.ts';
import { setVisitReviewState } from '../field-work/index.ts';
import { revokeAndHoldTeacherCodes } from '../surveys/index.ts';

/** What a handler needs to apply a decision to its subject, inside the decision's transaction. */
export interface DecisionContext {
  subjectId: number;
  submissionId: number | null;
  decision: ReviewDecision;
  note: string | null;
  /** With "Chiedi correzioni": the fields to correct (empty otherwise). */
  fields: ReviewField[];
  /** The reviewer, their address and the decision's moment. */
  actor: Actor;
  webUrl: string;
}

type DecisionHandler = (tx: Tx, ctx: DecisionContext) => Promise<void>;

const KIND_LABELS = { insegnante: 'insegnante', educatore: 'educatore', altro: 'partecipante' } as const;

const TEACHER_TEMPLATES: Record<ReviewDecision, TemplateKey> = {
  approve: 'email.revisione-insegnante-approvata',
  request_changes: 'email.revisione-insegnante-da-correggere',
  reject: 'email.revisione-insegnante-respinta',
};

const ADHESION_TARGET: Record<ReviewDecision, AdhesionState> = {
  approve: 'attivo',
  request_changes: 'da_correggere',
  reject: 'respinto',
};
const ADHESION_TEMPLATES: Record<ReviewDecision, TemplateKey> = {
  approve: 'email.revisione-adesione-approvata',
  request_changes: 'email.revisione-adesione-da-correggere',
  reject: 'email.revisione-adesione-respinta',
};

const VISIT_TEMPLATES: Record<ReviewDecision, TemplateKey> = {
  approve: 'email.revisione-visita-approvata',
  request_changes: 'email.revisione-visita-da-correggere',
  reject: 'email.revisione-visita-respinta',
};

const SUBJECT_GONE = 'Il soggetto di questa revisione non esiste più: non è possibile decidere.';

/**
 * The one place where a decision reaches its subject, per queue. Each handler runs in the transaction that
 * records the decision, so the decision, its effect, its e-mails and its audit commit together.
 */
export const DECISION_HANDLERS: Partial<Record<ReviewType, DecisionHandler>> = {
  async insegnanti(tx, ctx) {
    const teacher = await repo.setTeacherReviewState(
      tx,
      ctx.subjectId,
      REVIEW_DECISION_STATE[ctx.decision],
      ctx.actor.at,
    );
    if (!teacher) throw new HttpError(409, 'review_subject_missing', SUBJECT_GONE);
    if (ctx.decision === 'reject') {
      // Decision 029: a rejected teacher's codes stop working and what came in through them (and their own answer) waits for staff.
      const { revoked, held } = await revokeAndHoldTeacherCodes(tx, teacher.userId, ctx.actor.at);
      if (revoked.length > 0 || held > 0) {
        await auditWrite(tx, ctx.actor, {
          action: 'teacher.rejected-codes-revoked',
          entity: 'teacher',
          entityId: ctx.subjectId,
          after: { revokedCodeIds: revoked, heldResponses: held },
        });
      }
    }
    await enqueueMessage(tx, {
      templateKey: TEACHER_TEMPLATES[ctx.decision],
      recipient: teacher.email,
      data: {
        firstName: teacher.firstName,
        kindLabel: KIND_LABELS[teacher.kind],
        note: ctx.note ?? '',
        portalLink: `${ctx.webUrl}/portale`,
        // Where the note is shown and the registration can be corrected (issue 35, item 2).
        profileLink: `${ctx.webUrl}/auth/completa-registrazione`,
        contactLink: `${ctx.webUrl}/contatti`,
      },
      now: ctx.actor.at,
    });
  },

  async adesioni(tx, ctx) {
    await transitionAdhesion(tx, {
      instituteId: ctx.subjectId,
      to: ADHESION_TARGET[ctx.decision],
      from: ['adesione_firmata'],
      note: ctx.note,
      actorUserId: ctx.actor.userId,
      ip: ctx.actor.ip,
      at: ctx.actor.at,
    });
    const institute = await repo.instituteRecipients(tx, ctx.subjectId);
    if (!institute) throw new HttpError(409, 'review_subject_missing', SUBJECT_GONE);
    for (const recipient of institute.recipients) {
      await enqueueMessage(tx, {
        templateKey: ADHESION_TEMPLATES[ctx.decision],
        recipient: recipient.email,
        data: {
          firstName: recipient.firstName,
          instituteName: institute.name,
          ministryCode: institute.ministryCode,
          note: ctx.note ?? '',
          portalLink: `${ctx.webUrl}/portale`,
          adhesionLink: `${ctx.webUrl}/iscrizioni/adesione-formale`,
          contactLink: `${ctx.webUrl}/contatti`,
        },
        now: ctx.actor.at,
      });
    }
  },

  // A visit report: approved, sent back to its detector with the note (they fix it and resubmit), or rejected; the detector is told.
  async visite(tx, ctx) {
    const visit = await setVisitReviewState(
      tx,
      ctx.subjectId,
      REVIEW_DECISION_STATE[ctx.decision],
      ctx.note,
      ctx.fields,
      ctx.actor.at,
    );
    if (!visit) throw new HttpError(409, 'review_subject_missing', SUBJECT_GONE);
    await enqueueMessage(tx, {
      templateKey: VISIT_TEMPLATES[ctx.decision],
      recipient: visit.email,
      data: {
        firstName: visit.firstName,
        siteName: visit.siteName,
        visitDate: formatRomeDateTime(visit.scheduledAt),
        note: ctx.note ?? '',
        visitsLink: `${ctx.webUrl}/portale/istituti/plessi/${visit.schoolSiteId}/visite`,
      },
      now: ctx.actor.at,
    });
  },
};
