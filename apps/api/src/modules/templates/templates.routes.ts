import type { FastifyInstance } from 'fastify';
import {
  exportTemplates,
  getTemplate,
  listTemplates,
  listTemplateVersions,
  previewTemplate,
  restoreTemplateVersion,
  TEMPLATE_CHANNEL_LABELS,
  updateTemplate,
  type TemplateDetail,
  type TemplateSummary,
} from '@portale/shared/templates';
import { actorOf } from '../../lib/audit.ts';
import { registerEndpoint, type RequestWithParams } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { FieldErrors } from '../../lib/field-errors.ts';
import { documentSections, winAnsi } from '../../lib/render/document-sections.ts';
import { renderMessage } from '../../lib/render/template-render.ts';
import { ACCESS_CODE_SHEET_TEMPLATE_KEY } from '../surveys/index.ts';
import { renderPdf } from '../../lib/render/pdf-writer.ts';
import { renderAccessCodeSheet } from '../../lib/render/access-code-sheet.ts';
import { allowedPlaceholders, draftErrors, maxLengthOf, sampleData } from './template-catalog.ts';
import { templateStore as repo } from '../messages/index.ts';
import * as service from './templates.service.ts';

const EXPORT_COLUMNS: ExportColumn<TemplateSummary>[] = [
  { header: 'Chiave', value: (r) => r.key },
  { header: 'Canale', value: (r) => TEMPLATE_CHANNEL_LABELS[r.channel] },
  { header: 'Oggetto o titolo', value: (r) => r.subject },
  { header: 'Versione in uso', value: (r) => r.version },
  { header: 'Aggiornato il', value: (r) => new Date(r.updatedAt) },
  { header: 'Aggiornato da', value: (r) => r.updatedBy ?? 'Sistema (versione predefinita)' },
];

/** The record of a `:key` route: templates have no owner (super-admin's `:any` grants); unknown → 404. */
async function templateOf(request: RequestWithParams<{ key: string }>) {
  const { key } = request.params;
  if (!(await repo.findCurrent(request.server.db, key))) throw service.templateNotFound();
  return { ownerUserIds: [] };
}

function toDetail(row: repo.TemplateRow): TemplateDetail {
  return {
    ...repo.toSummary(row),
    textBody: row.textBody,
    hasDefaultLayout: row.channel === 'email' && row.htmlBody !== null,
    restoredFromVersion: row.restoredFromVersion,
    placeholders: [...allowedPlaceholders(row.key)],
    maxLength: maxLengthOf(row.channel),
  };
}

/** Stored templates (issue 10): list, editor, versions, preview and restore — the super-admin's. */
export async function templateRoutes(app: FastifyInstance) {
  registerEndpoint(app, listTemplates, { anyOnly: true }, (request) =>
    repo.listTemplates(app.db, request.query),
  );

  registerEndpoint(app, exportTemplates, { anyOnly: true }, async (request, reply) => {
    const { format, ...filters } = request.query;
    const rows = (await repo.filteredTemplates(app.db, filters)).map(repo.toSummary);
    return sendExport(reply, {
      format,
      name: 'modelli',
      sheetName: 'Modelli',
      columns: EXPORT_COLUMNS,
      total: rows.length,
      today: app.clock.now(),
      produce: async (write) => void (await write(rows)),
    });
  });

  registerEndpoint(app, getTemplate, { resource: templateOf }, async (request) => {
    const row = await repo.findCurrent(app.db, request.params.key);
    if (!row) throw service.templateNotFound();
    return toDetail(row);
  });

  registerEndpoint(app, listTemplateVersions, { resource: templateOf }, async (request) => ({
    items: (await repo.listVersions(app.db, request.params.key)).map(repo.toVersion),
  }));

  registerEndpoint(app, updateTemplate, { resource: templateOf }, async (request) =>
    toDetail(await service.updateTemplate(app.db, actorOf(request), request.params.key, request.body)),
  );

  registerEndpoint(app, restoreTemplateVersion, { resource: templateOf }, async (request, reply) => {
    const { key, version: from } = request.params;
    const restored = await service.restoreTemplateVersion(app.db, actorOf(request), key, from);
    reply.header('location', `/api/templates/${key}`);
    return toDetail(restored);
  });

  registerEndpoint(app, previewTemplate, { resource: templateOf }, async (request, reply) => {
    const { key } = request.params;
    const current = await repo.findCurrent(app.db, key);
    if (!current) throw service.templateNotFound();
    const draft = request.body;
    const errors = draftErrors(key, current.channel, draft);
    if (Object.keys(errors).length) throw new FieldErrors(errors);
    const data = sampleData(key);
    reply.header('cache-control', 'no-store');
    if (key === ACCESS_CODE_SHEET_TEMPLATE_KEY) {
      // The sheet as it prints: two example cards with the draft's title and instructions.
      const expiresAt = new Date(Date.UTC(2027, 0, 31, 23)).toISOString();
      const sample = {
        surveyTitle: String(data.surveyTitle),
        schoolSiteName: 'Plesso Centrale (RMEE000001)',
        expiresAt,
      };
      const codes = [
        { ...sample, code: 'Ab3dE5g', classLabel: '3A', maxUses: 1 },
        { ...sample, code: 'Xy7kP2q', classLabel: '3A', maxUses: 1 },
      ];
      const pdf = await renderAccessCodeSheet(codes, {
        webUrl: app.env.publicWebUrl,
        createdAt: app.clock.now(),
        template: draft,
      });
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="anteprima-${key}.pdf"`)
        .send(Buffer.from(pdf));
    }
    if (current.channel === 'pdf') {
      const sections = documentSections(
        { version: current.version, subject: draft.subject, textBody: draft.textBody },
        data as Record<string, string>,
      );
      const subtitle =
        data.instituteName && data.ministryCode
          ? `${data.instituteName} – ${data.ministryCode}`
          : 'Anteprima con dati di esempio';
      const pdf = await renderPdf(
        { title: winAnsi(draft.subject ?? ''), subtitle: winAnsi(String(subtitle)), sections },
        app.clock.now(),
      );
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="anteprima-${key}.pdf"`)
        .send(Buffer.from(pdf));
    }
    const message = renderMessage(
      { channel: current.channel, subject: draft.subject, htmlBody: null, textBody: draft.textBody },
      data,
    );
    if (current.channel === 'sms')
      return { channel: 'sms' as const, text: message.text, length: message.text.length };
    return {
      channel: 'email' as const,
      subject: message.subject ?? '',
      html: message.html ?? '',
      text: message.text,
    };
  });
}
