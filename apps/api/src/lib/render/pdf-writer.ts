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

const PRODUCER = 'Portale Scuole (pdf-lib)';
const AUTHOR = 'Portale Scuole – programma nazionale di indagine';
const assets = new URL('./pdf-assets/', import.meta.url);

/** The fonts and the colour profile every document embeds, read once. */
let embedded: Promise<{ regular: Uint8Array; bold: Uint8Array; srgb: Uint8Array }> | undefined;
const pdfAssets = () =>
  (embedded ??= (async () => {
    const { readFile } = await import('node:fs/promises');
    const [regular, bold, srgb] = await Promise.all(
      ['TitilliumWeb-Regular.ttf', 'TitilliumWeb-Bold.ttf', 'sRGB.icc'].map((name) =>
        readFile(new URL(name, assets)),
      ),
    );
    return { regular: regular!, bold: bold!, srgb: srgb! };
  })());

const xmlText = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The XMP metadata of a PDF/A-2b document: the identification (`pdfaid`) and the same title, author,
 * subject, producer and dates as the document information dictionary (ISO 19005-2 §6.6.2.3.1).
 */
export function pdfAMetadata(info: { title: string; subject: string; createdAt: Date }): string {
  const at = info.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
   <pdfaid:part>2</pdfaid:part>
   <pdfaid:conformance>B</pdfaid:conformance>
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${xmlText(info.title)}</rdf:li></rdf:Alt></dc:title>
   <dc:creator><rdf:Seq><rdf:li>${xmlText(AUTHOR)}</rdf:li></rdf:Seq></dc:creator>
   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">${xmlText(info.subject)}</rdf:li></rdf:Alt></dc:description>
   <dc:language><rdf:Bag><rdf:li>it-IT</rdf:li></rdf:Bag></dc:language>
   <xmp:CreateDate>${at}</xmp:CreateDate>
   <xmp:ModifyDate>${at}</xmp:ModifyDate>
   <xmp:MetadataDate>${at}</xmp:MetadataDate>
   <xmp:CreatorTool>${xmlText(PRODUCER)}</xmp:CreatorTool>
   <pdf:Producer>${xmlText(PRODUCER)}</pdf:Producer>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}

/**
 * A plain A4 document as PDF/A-2b (decision 032): Titillium Web embedded, XMP metadata that repeats
 * the information dictionary, the sRGB output intent, a document ID; the same bytes for the same
 * content and time (the adhesion's fingerprint depends on it).
 */
export async function renderPdf(spec: PdfSpec, createdAt: Date): Promise<Uint8Array> {
  // Loaded when a document is first rendered (seed), not at every start: a faster restart.
  const [{ PDFDocument, PDFHexString, PDFName, PDFString, rgb }, { default: fontkit }, files] =
    await Promise.all([import('pdf-lib'), import('@pdf-lib/fontkit'), pdfAssets()]);
  const { createHash } = await import('node:crypto');
  const BLUE = rgb(0, 0.4, 0.8);
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.registerFontkit(fontkit);
  pdf.setTitle(spec.title);
  pdf.setSubject(spec.subtitle);
  pdf.setAuthor(AUTHOR);
  pdf.setCreator(PRODUCER);
  pdf.setProducer(PRODUCER);
  pdf.setLanguage('it-IT');
  pdf.setCreationDate(createdAt);
  pdf.setModificationDate(createdAt);
  // A fixed name (pdf-lib would add a random suffix): the same content gives the same bytes.
  const regular = await pdf.embedFont(files.regular, { subset: false, customName: 'TitilliumWeb-Regular' });
  const bold = await pdf.embedFont(files.bold, { subset: false, customName: 'TitilliumWeb-Bold' });
  const { context, catalog } = pdf;
  // Not compressed, UTF-8 (ISO 19005-2 §6.6.2.1).
  const metadata = context.stream(
    new TextEncoder().encode(pdfAMetadata({ title: spec.title, subject: spec.subtitle, createdAt })),
    { Type: 'Metadata', Subtype: 'XML' },
  );
  catalog.set(PDFName.of('Metadata'), context.register(metadata));
  const profile = context.register(context.flateStream(files.srgb, { N: 3 }));
  const intent = context.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFA1',
    OutputConditionIdentifier: PDFString.of('sRGB IEC61966-2.1'),
    Info: PDFString.of('sRGB IEC61966-2.1'),
    DestOutputProfile: profile,
  });
  catalog.set(PDFName.of('OutputIntents'), context.obj([intent]));
  const id = createHash('sha256')
    .update(JSON.stringify(spec))
    .update(createdAt.toISOString())
    .digest('hex')
    .slice(0, 32);
  context.trailerInfo.ID = context.obj([PDFHexString.of(id), PDFHexString.of(id)]);
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
    p.drawText(`${spec.title} – pagina ${i + 1} di ${pages.length}`, {
      x: PAGE.margin,
      y: 28,
      size: 8,
      font: regular,
      color: rgb(0.36, 0.44, 0.51),
    }),
  );
  return pdf.save({ useObjectStreams: false });
}
