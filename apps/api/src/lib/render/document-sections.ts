import type { PdfSection } from './pdf-writer.ts';
import { fillPlaceholders } from './template-render.ts';

export interface DocumentTemplate {
  version: number;
  subject: string | null;
  textBody: string;
}

// Helvetica of the PDF encodes WinAnsi: Latin-1 plus a few typographic marks. Anything else becomes
// its closest plain letter (accents dropped) or a question mark, so no name can break the rendering.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
export function winAnsi(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else if (ch === '\t') out += ' ';
    else {
      const plain = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      out += plain.length === 1 && plain.codePointAt(0)! < 0x7f ? plain : '?';
    }
  }
  return out;
}

/** The template text with its values, as headings and paragraphs. */
export function documentSections(template: DocumentTemplate, values: Record<string, string>): PdfSection[] {
  const sections: PdfSection[] = [];
  for (const raw of fillPlaceholders(template.textBody, values).split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith('## ')) sections.push({ heading: winAnsi(line.slice(3)), paragraphs: [] });
    else {
      if (sections.length === 0) sections.push({ heading: '', paragraphs: [] });
      sections.at(-1)!.paragraphs.push(winAnsi(line.startsWith('- ') ? `• ${line.slice(2)}` : line));
    }
  }
  return sections;
}
