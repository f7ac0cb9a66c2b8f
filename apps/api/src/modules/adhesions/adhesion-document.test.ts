import { describe, expect, it } from 'vitest';
import { pdfAProblems } from '../../../test/support/pdfa-check.ts';
import { DEFAULT_DOCUMENT_TEMPLATE, renderAdhesionDocument } from './adhesion-document.ts';
import type { AdhesionDataRow } from './adhesions.repository.ts';
import { renderPdf } from '../../lib/render/pdf-writer.ts';

const person = (firstName: string, lastName: string, taxCode: string) => ({
  id: 1,
  firstName,
  lastName,
  email: `${firstName.toLowerCase()}@example.test`,
  taxCode,
  taxCodeVerifiedAt: null,
  taxCodeVerifiedSource: null,
  phone: '+393331234567',
  phoneVerifiedAt: new Date('2026-11-01T10:00:00Z'),
});

const institute: AdhesionDataRow = {
  id: 1,
  ministryCode: 'RMIC8AB001',
  name: 'I.C. “Niccolò Machiavelli” – sede di Roma',
  address: 'Via dell’Università 1',
  postalCode: '00185',
  municipalityName: 'Roma',
  province: 'RM',
  region: 'Lazio',
  certifiedEmail: 'rmic8ab001@pec.istruzione.it',
  adhesionState: 'iscritto',
  adhesionStateChangedAt: new Date('2026-11-20T09:00:00Z'),
  principal: person('Maria', 'Rossi', 'RSSMRA80A01H501U'),
  firstContact: person('Luca', 'Bianchi', 'BNCLCU85B02H501Z'),
  schoolSites: [
    {
      id: 1,
      ministryCode: 'RMEE8AB012',
      name: 'Scuola primaria “Gianni Rodari”',
      schoolLevel: 'primaria',
      municipalityName: 'Roma',
      province: 'RM',
    },
  ],
};

describe('the PDFs the portal generates are PDF/A-2b', () => {
  it('the adhesion document: fonts embedded, XMP agreeing with the Info dictionary, sRGB output intent, an ID (qpdf and pdffonts agree)', async () => {
    const { pdf } = await renderAdhesionDocument(
      DEFAULT_DOCUMENT_TEMPLATE,
      institute,
      new Date('2026-11-28T10:15:00Z'),
    );
    expect(await pdfAProblems(pdf)).toEqual([]);
  });

  it('a public document with characters beyond ASCII in its title, over several pages', async () => {
    const bytes = await renderPdf(
      {
        title: 'Informativa sul trattamento dei dati – “privacy” & <cookie>',
        subtitle: 'Perché, come e per quanto: i diritti dell’interessato',
        sections: Array.from({ length: 12 }, (_, i) => ({
          heading: `Sezione ${i + 1}: àèéìòù €`,
          paragraphs: ['Testo di prova con accenti àèéìòù, simboli € e virgolette “ ” ’. '.repeat(12)],
        })),
      },
      new Date('2026-11-28T10:15:00Z'),
    );
    expect(await pdfAProblems(bytes)).toEqual([]);
  });

  it('the check itself finds what a PDF/A validator finds in a plain pdf-lib document', async () => {
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const plain = await PDFDocument.create();
    plain.addPage().drawText('Prova', { font: await plain.embedFont(StandardFonts.Helvetica) });
    const problems = await pdfAProblems(await plain.save());
    expect(problems.join('\n')).toMatch(/6\.2\.3 no OutputIntent/);
    expect(problems.join('\n')).toMatch(
      /6\.2\.11\.4 page 1: font \/F\S* is not embedded|6\.2\.11\.4 page 1: font/,
    );
    expect(problems.join('\n')).toMatch(/6\.6\.2 no XMP metadata/);
    expect(problems.join('\n')).toMatch(/pdffonts: not embedded: Helvetica/);
  });
});
