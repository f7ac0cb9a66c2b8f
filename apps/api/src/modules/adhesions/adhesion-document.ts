import { createHash } from 'node:crypto';
import { ADHESION_TEMPLATE_KEY } from '@portale/shared/adhesions';
import { SCHOOL_LEVEL_LABELS } from '@portale/shared/registry';
import { ADHESIONS_TEMPLATES } from './adhesions.templates.ts';
import { documentSections, winAnsi, type DocumentTemplate } from '../../lib/render/document-sections.ts';
import { renderPdf } from '../../lib/render/pdf-writer.ts';
import type { AdhesionDataRow } from './adhesions.repository.ts';

export type { DocumentTemplate };

/** Version 1 of `documento.adesione`, for a database whose templates were not seeded. */
export const DEFAULT_DOCUMENT_TEMPLATE: DocumentTemplate = (() => {
  const t = ADHESIONS_TEMPLATES.find((d) => d.key === ADHESION_TEMPLATE_KEY);
  if (!t) throw new Error(`Missing default template ${ADHESION_TEMPLATE_KEY}`);
  return { version: 1, subject: t.subject, textBody: t.textBody };
})();

const dateFormat = new Intl.DateTimeFormat('it-IT', {
  timeZone: 'Europe/Rome',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

/** One value in one line: placeholders never add headings or paragraphs. */
const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim();

const fullName = (p: { firstName: string; lastName: string } | null) =>
  p ? oneLine(`${p.firstName} ${p.lastName}`) : null;

/** The placeholder values of `documento.adesione` for an institute on a day. */
export function documentData(data: AdhesionDataRow, createdAt: Date): Record<string, string> {
  const sites = data.schoolSites.length
    ? data.schoolSites
        .map(
          (s) =>
            `- ${oneLine(s.name)} (${s.ministryCode}), ${SCHOOL_LEVEL_LABELS[s.schoolLevel]}, ${oneLine(s.municipalityName)} (${s.province})`,
        )
        .join('\n')
    : 'Nessun plesso indicato: i plessi partecipanti saranno comunicati tramite il portale.';
  const address = [data.address, data.postalCode]
    .filter(Boolean)
    .map((v) => oneLine(v!))
    .join(' – ');
  return {
    instituteName: oneLine(data.name),
    ministryCode: data.ministryCode,
    address: address || 'indirizzo non indicato',
    municipality: oneLine(data.municipalityName),
    province: data.province,
    region: oneLine(data.region),
    certifiedEmail: data.certifiedEmail ? oneLine(data.certifiedEmail) : 'non indicata',
    principalName: fullName(data.principal) ?? 'il dirigente scolastico',
    principalTaxCode: data.principal?.taxCode
      ? oneLine(data.principal.taxCode).toUpperCase()
      : 'non indicato',
    firstContactName: data.firstContact
      ? `${fullName(data.firstContact)} (${oneLine(data.firstContact.email)})`
      : 'non ancora indicato',
    schoolSites: sites,
    date: dateFormat.format(createdAt),
  };
}

export interface RenderedDocument {
  pdf: Buffer;
  sha256: string;
}

/**
 * Renders the adhesion document. Deterministic: the same data, template and creation time give the
 * same bytes (fixed creation and modification dates, no random ids), so a document is regenerated
 * only when something in it changed and the principal signs exactly what they reviewed.
 */
export async function renderAdhesionDocument(
  template: DocumentTemplate,
  data: AdhesionDataRow,
  createdAt: Date,
): Promise<RenderedDocument> {
  const values = documentData(data, createdAt);
  const bytes = await renderPdf(
    {
      title: winAnsi(template.subject ?? 'Adesione formale al programma'),
      subtitle: winAnsi(`${values.instituteName} – ${values.ministryCode}`),
      sections: documentSections(template, values),
    },
    createdAt,
  );
  const pdf = Buffer.from(bytes);
  return { pdf, sha256: createHash('sha256').update(pdf).digest('hex') };
}
