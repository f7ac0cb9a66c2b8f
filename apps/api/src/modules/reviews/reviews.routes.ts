import type { FastifyInstance } from 'fastify';
import {
  decideReview,
  exportReviews,
  isCorrectableField,
  REVIEW_FIELD_NOT_IN_QUEUE,
  getReview,
  listReviews,
  nextReview,
  REVIEW_DECISION_STATE,
  REVIEW_STATE_LABELS,
  type ReviewConflict,
  type ReviewSummary,
} from '@portale/shared/reviews';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite } from '../../lib/audit.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { forEachBatch } from '../../lib/list.ts';
import { authOf } from '../../plugins/authorization.ts';
import { DECISION_HANDLERS } from './review-decisions.ts';
import * as repo from './reviews.repository.ts';

export const REVIEW_NOT_FOUND = 'Elemento da revisionare non trovato in questa coda.';

const romeDateTime = new Intl.DateTimeFormat('it-IT', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'Europe/Rome',
});

const EXPORT_COLUMNS: ExportColumn<ReviewSummary>[] = [
  { header: 'Numero', value: (r) => r.id },
  { header: 'Soggetto', value: (r) => r.title },
  { header: 'Codice o e-mail', value: (r) => r.code },
  { header: 'Luogo', value: (r) => r.place },
  { header: 'Stato', value: (r) => REVIEW_STATE_LABELS[r.state] },
  { header: 'Inviato il', value: (r) => new Date(r.submittedAt) },
  { header: 'Deciso il', value: (r) => (r.decidedAt ? new Date(r.decidedAt) : null) },
  { header: 'Deciso da', value: (r) => r.decidedBy },
];

/** The review queues (insegnanti, adesioni, visite): list, export, claim the next item, detail, decision. */
export async function reviewRoutes(app: FastifyInstance) {
  const notFound = () => new HttpError(404, 'not_found', REVIEW_NOT_FOUND);

  registerEndpoint(app, listReviews, {}, (request) =>
    repo.listReviews(app.db, request.params.type, request.query, app.clock.now()),
  );

  registerEndpoint(app, exportReviews, {}, async (request, reply) => {
    const { type } = request.params;
    const { format, ...filters } = request.query;
    const now = app.clock.now();
    const total = await repo.countReviews(app.db, type, filters);
    return sendExport(reply, {
      format,
      name: `revisioni-${type}`,
      sheetName: 'Revisioni',
      columns: EXPORT_COLUMNS,
      total,
      today: now,
      produce: (write) =>
        forEachBatch(app.db, repo.reviewListQuery(app.db, type, filters, now), repo.toReviewSummary, write),
    });
  });

  registerEndpoint(app, nextReview, {}, async (request) => {
    const { type } = request.params;
    const now = app.clock.now();
    const itemId = await repo.claimNext(app.db, type, authOf(request).user.id, now);
    const item = itemId === undefined ? null : ((await repo.findReview(app.db, type, itemId, now)) ?? null);
    return { item, pending: await repo.countPending(app.db, type) };
  });

  registerEndpoint(app, getReview, {}, async (request) => {
    const { type, itemId } = request.params;
    return (await repo.findReview(app.db, type, itemId, app.clock.now())) ?? Promise.reject(notFound());
  });

  registerEndpoint(app, decideReview, {}, async (request, reply) => {
    const { type, itemId } = request.params;
    const { decision, note, fields } = request.body;
    const handler = DECISION_HANDLERS[type];
    if (!handler) throw notFound();
    if (fields.some((field) => !isCorrectableField(type, field)))
      throw fieldError('fields', REVIEW_FIELD_NOT_IN_QUEUE);
    const userId = authOf(request).user.id;
    const now = app.clock.now();
    const state = REVIEW_DECISION_STATE[decision];
    const decided = await withTransaction(app.db, async (tx) => {
      const row = await repo.recordDecision(tx, {
        type,
        itemId,
        state,
        note: note ?? null,
        fields,
        userId,
        now,
      });
      if (!row) return false;
      await handler(tx, {
        subjectId: row.subjectId,
        submissionId: row.submissionId,
        decision,
        note: note ?? null,
        fields,
        actorUserId: userId,
        ip: request.ip,
        at: now,
        webUrl: app.env.publicWebUrl,
      });
      await auditWrite(tx, request, {
        action: 'review.decided',
        entity: 'review',
        entityId: itemId,
        before: { state: 'in_attesa' },
        after: {
          type,
          subjectId: row.subjectId,
          decision,
          state,
          ...(note ? { note } : {}),
          ...(fields.length > 0 ? { fields } : {}),
        },
      });
      return true;
    });
    if (!decided) {
      const current = await repo.findReviewState(app.db, type, itemId);
      if (!current) throw notFound();
      // Another reviewer was first: say who and when, and where to go on.
      const who = current.decidedBy ? ` da ${current.decidedBy}` : '';
      const when = current.decidedAt ? ` il ${romeDateTime.format(current.decidedAt)}` : '';
      const body: ReviewConflict = {
        statusCode: 409,
        code: 'review_already_decided',
        message: `Questo elemento è già stato deciso${who}${when} (stato «${REVIEW_STATE_LABELS[current.state]}»): la tua decisione non è stata registrata. Passa al prossimo elemento.`,
        nextItemId: await repo.peekNext(app.db, type, userId, now),
      };
      request.log.info({ code: body.code, statusCode: 409 }, 'request refused');
      return reply.status(409).send(body);
    }
    const item = await repo.findReview(app.db, type, itemId, now);
    return { item: item!, nextItemId: await repo.peekNext(app.db, type, userId, now) };
  });
}
