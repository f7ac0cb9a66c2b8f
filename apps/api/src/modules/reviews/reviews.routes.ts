import type { FastifyInstance } from 'fastify';
import {
  decideReview,
  exportReviews,
  REVIEW_FIELD_NOT_IN_QUEUE,
  getReview,
  listReviews,
  nextReview,
  REVIEW_STATE_LABELS,
  type ReviewConflict,
  type ReviewSummary,
} from '@portale/shared/reviews';
import { actorOf } from '../../lib/audit.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { forEachBatch } from '../../lib/list.ts';
import { authOf } from '../../plugins/authorization.ts';
import { findReview } from './review-content.ts';
import * as repo from './reviews.repository.ts';
import * as service from './reviews.service.ts';

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
    const item = itemId === undefined ? null : ((await findReview(app.db, type, itemId, now)) ?? null);
    return { item, pending: await repo.countPending(app.db, type) };
  });

  registerEndpoint(app, getReview, {}, async (request) => {
    const { type, itemId } = request.params;
    return (await findReview(app.db, type, itemId, app.clock.now())) ?? Promise.reject(notFound());
  });

  registerEndpoint(app, decideReview, {}, async (request, reply) => {
    const { type, itemId } = request.params;
    const { decision, note, fields } = request.body;
    const reviewer = { ...actorOf(request), userId: authOf(request).user.id };
    const outcome = await service.decideReview({ db: app.db, webUrl: app.env.publicWebUrl }, reviewer, {
      type,
      itemId,
      decision,
      note,
      fields,
    });
    if (outcome.kind === 'not-found') throw notFound();
    if (outcome.kind === 'field-not-in-queue') throw fieldError('fields', REVIEW_FIELD_NOT_IN_QUEUE);
    if (outcome.kind === 'decided') return { item: outcome.item, nextItemId: outcome.nextItemId };
    // Another reviewer was first: say who and when, and where to go on.
    const { current } = outcome;
    const who = current.decidedBy ? ` da ${current.decidedBy}` : '';
    const when = current.decidedAt ? ` il ${romeDateTime.format(current.decidedAt)}` : '';
    const body: ReviewConflict = {
      statusCode: 409,
      code: 'review_already_decided',
      message: `Questo elemento è già stato deciso${who}${when} (stato «${REVIEW_STATE_LABELS[current.state]}»): la tua decisione non è stata registrata. Passa al prossimo elemento.`,
      nextItemId: outcome.nextItemId,
    };
    request.log.info({ code: body.code, statusCode: 409 }, 'request refused');
    return reply.status(409).send(body);
  });
}
