import type { PDFFont, PDFPage } from 'pdf-lib';

export interface PdfSection {
  heading: string;
  paragraphs: string[];
}

export interface PdfSpec {
  title: string;
  subtitle: string;
  sections: PdfSection[];
}

const PAGE = { width: 595.28, height: 841.89, margin: 56 };

/** The words of `text` in lines no wider than `width` at `size` (a longer single word stays whole). */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) > width && line) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
}

/** A plain, tagged-title A4 document (Helvetica, WinAnsi: Italian accents are supported). */
export async function renderPdf(spec: PdfSpec, createdAt: Date): Promise<Uint8Array> {
  // Loaded when a document is first rendered (seed), not at every start: a faster restart.
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const BLUE = rgb(0, 0.4, 0.8);
  const pdf = await PDFDocument.create();
  pdf.setTitle(spec.title);
  pdf.setSubject(spec.subtitle);
  pdf.setAuthor('Portale Scuole – programma nazionale di indagine');
  pdf.setLanguage('it-IT');
  pdf.setCreationDate(createdAt);
  pdf.setModificationDate(createdAt);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const width = PAGE.width - PAGE.margin * 2;
  let page: PDFPage = pdf.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;

  const write = (text: string, font: PDFFont, size: number, gapAfter: number, color = rgb(0.1, 0.1, 0.1)) => {
    for (const line of wrap(text, font, size, width)) {
      if (y < PAGE.margin + size) {
        page = pdf.addPage([PAGE.width, PAGE.height]);
        y = PAGE.height - PAGE.margin;
      }
      page.drawText(line, { x: PAGE.margin, y: y - size, size, font, color });
      y -= size * 1.45;
    }
    y -= gapAfter;
  };

  write('Portale Scuole', bold, 11, 4, BLUE);
  write(spec.title, bold, 20, 4);
  write(spec.subtitle, regular, 11, 16, rgb(0.36, 0.44, 0.51));
  for (const section of spec.sections) {
    write(section.heading, bold, 13, 4, BLUE);
    for (const paragraph of section.paragraphs) write(paragraph, regular, 10.5, 6);
    y -= 6;
  }
  const pages = pdf.getPages();
  pages.forEach((p, i) =>
    p.drawText(`${spec.title} – pagina ${i + 1} di ${pages.length}`, { x: PAGE.margin, y: 28, size: 8, font: regular, color: rgb(0.36, 0.44, 0.51) }),
  );
  return pdf.save();
}
