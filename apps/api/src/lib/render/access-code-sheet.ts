import type { PDFFont, PDFPage } from 'pdf-lib';
import type { AccessCodeSummary } from '@portale/shared/surveys';
import { winAnsi } from './document-sections.ts';
import { fillPlaceholders } from './template-render.ts';
import { wrap } from './pdf-writer.ts';

/** One card per code, 2 × 3 cards on an A4 page, with dashed borders to cut along. */
const PAGE = { width: 595.28, height: 841.89, margin: 28 };
const COLUMNS = 2;
const ROWS = 3;

const formatDay = new Intl.DateTimeFormat('it-IT', {
  timeZone: 'Europe/Rome',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
}).format;

/** What a card shows of a code. */
export type SheetCode = Pick<
  AccessCodeSummary,
  'code' | 'surveyTitle' | 'schoolSiteName' | 'classLabel' | 'expiresAt' | 'maxUses'
>;

export interface SheetOptions {
  /** The public web origin: each card shows `{webUrl}/{code}`. */
  webUrl: string;
  createdAt: Date;
  /** The stored template `documento.codici-accesso` in use: the sheet's title and each card's instructions. */
  template: { subject: string | null; textBody: string };
}

/** The values of the sheet template's placeholders for one code. */
export function sheetCardData(
  code: Pick<AccessCodeSummary, 'code' | 'surveyTitle' | 'expiresAt'>,
): Record<string, string> {
  return { code: code.code, surveyTitle: code.surveyTitle, lastDay: lastValidDay(code.expiresAt) };
}

/** The last instant a code works: its expiry is the midnight after its last day (Europe/Rome). */
export const lastValidInstant = (expiresAt: string | Date) => new Date(new Date(expiresAt).getTime() - 1);

/** The last day a code works, as the sheet prints it. */
export const lastValidDay = (expiresAt: string | Date) => formatDay(lastValidInstant(expiresAt));

/**
 * The printable sheet of access codes (pdf-lib, Helvetica): for each code its address, the code in
 * large type, survey, plesso, class, last valid day, uses and the instructions in Italian.
 */
export async function renderAccessCodeSheet(
  codes: readonly SheetCode[],
  options: SheetOptions,
): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const BLUE = rgb(0, 0.4, 0.8);
  const GREY = rgb(0.36, 0.44, 0.51);
  const INK = rgb(0.1, 0.1, 0.1);
  const pdf = await PDFDocument.create();
  const title = options.template.subject ?? 'Codici di accesso al questionario';
  pdf.setTitle(title);
  pdf.setSubject('Schede da ritagliare e consegnare a studenti e famiglie');
  pdf.setAuthor('Portale Scuole – programma nazionale di indagine');
  pdf.setLanguage('it-IT');
  pdf.setCreationDate(options.createdAt);
  pdf.setModificationDate(options.createdAt);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const mono = await pdf.embedFont(StandardFonts.CourierBold);
  const cardWidth = (PAGE.width - PAGE.margin * 2) / COLUMNS;
  const cardHeight = (PAGE.height - PAGE.margin * 2) / ROWS;
  const pad = 14;
  const base = options.webUrl.replace(/\/+$/, '');

  let page: PDFPage | undefined;
  codes.forEach((code, index) => {
    const slot = index % (COLUMNS * ROWS);
    if (slot === 0) page = pdf.addPage([PAGE.width, PAGE.height]);
    const p = page!;
    const x0 = PAGE.margin + (slot % COLUMNS) * cardWidth;
    const top = PAGE.height - PAGE.margin - Math.floor(slot / COLUMNS) * cardHeight;
    p.drawRectangle({
      x: x0,
      y: top - cardHeight,
      width: cardWidth,
      height: cardHeight,
      borderColor: GREY,
      borderWidth: 0.6,
      borderDashArray: [4, 3],
    });
    const width = cardWidth - pad * 2;
    let y = top - pad;
    const line = (text: string, font: PDFFont, size: number, color = INK, gap = 2, maxLines = 3) => {
      const lines = wrap(winAnsi(text), font, size, width);
      if (lines.length > maxLines)
        lines.splice(maxLines - 1, lines.length, `${lines[maxLines - 1]!.replace(/\s*\S+$/, '')}…`);
      for (const l of lines) {
        // Never into the card below (only reachable with every field at its longest).
        if (y - size < top - cardHeight + pad / 2) break;
        p.drawText(l, { x: x0 + pad, y: y - size, size, font, color });
        y -= size * 1.3;
      }
      y -= gap;
    };
    line('Portale Scuole – questionario anonimo', bold, 8, BLUE, 3);
    line(code.surveyTitle, bold, 10, INK, 4, 2);
    line('Il tuo codice', regular, 8, GREY, 0);
    line(code.code, mono, 26, INK, 6);
    line('Apri questo indirizzo:', regular, 8, GREY, 0);
    line(`${base}/${code.code}`, bold, 9, BLUE, 5, 2);
    line(`Plesso: ${code.schoolSiteName}`, regular, 8, INK, 2, 2);
    if (code.classLabel) line(`Classe: ${code.classLabel}`, regular, 8, INK, 2, 1);
    line(
      `Valido fino al ${lastValidDay(code.expiresAt)}${code.maxUses > 1 ? ` · utilizzabile ${code.maxUses} volte` : ' · utilizzabile una volta'}`,
      regular,
      8,
      INK,
      5,
    );
    line(fillPlaceholders(options.template.textBody, sheetCardData(code)), regular, 8, GREY, 2, 6);
  });
  if (codes.length === 0) pdf.addPage([PAGE.width, PAGE.height]);
  const pages = pdf.getPages();
  pages.forEach((p, i) =>
    p.drawText(
      winAnsi(`${title} – pagina ${i + 1} di ${pages.length} – ritagliare lungo le linee tratteggiate`),
      { x: PAGE.margin, y: 12, size: 7, font: regular, color: GREY },
    ),
  );
  return pdf.save();
}
