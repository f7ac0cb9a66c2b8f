import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  type PDFObject,
} from 'pdf-lib';

// The PDF/A-2b requirements (ISO 19005-2) that apply to the documents the portal generates, checked on
// the bytes: the file is parsed again (pdf-lib) and, independently of pdf-lib, given to Debian's `qpdf
// --check` (syntax, cross-reference, streams) and poppler's `pdffonts` (every font embedded). veraPDF,
// the reference validator, is not packaged for Debian nor npm (decision 032). Each problem is one line
// naming its clause.

const tool = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' });

/** The problems found; empty when the file conforms as far as these checks go. */
export async function pdfAProblems(bytes: Uint8Array): Promise<string[]> {
  const problems: string[] = [];
  const text = Buffer.from(bytes).toString('latin1');
  // §6.1.2: a header, then a comment of at least four bytes above 127.
  if (!/^%PDF-1\.[0-7]\r?\n%[\x80-\xff]{4}/.test(text))
    problems.push('6.1.2 header: no "%PDF-1.n" line followed by a binary comment');
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const { context, catalog } = pdf;
  const resolve = (o: PDFObject | undefined) => (o instanceof PDFRef ? context.lookup(o) : o);
  // §6.1.3: a file identifier, no encryption.
  const id = context.trailerInfo.ID;
  if (
    !(id instanceof PDFArray) ||
    id.size() !== 2 ||
    !id.asArray().every((s) => s instanceof PDFHexString || s instanceof PDFString)
  )
    problems.push('6.1.3 trailer: no ID of two strings');
  if (context.trailerInfo.Encrypt) problems.push('6.1.3 trailer: the file is encrypted');
  // §6.1.7: no LZW.
  for (const [, object] of context.enumerateIndirectObjects()) {
    if (object instanceof PDFStream && /LZWDecode/.test(String(object.dict.get(PDFName.of('Filter')))))
      problems.push('6.1.7 a stream uses LZWDecode');
  }
  // §6.2.3: an output intent GTS_PDFA1 with an embedded RGB profile (the pages paint in DeviceRGB).
  const intents = resolve(catalog.get(PDFName.of('OutputIntents')));
  const intent =
    intents instanceof PDFArray
      ? intents
          .asArray()
          .map(resolve)
          .find((d) => d instanceof PDFDict && d.get(PDFName.of('S'))?.toString() === '/GTS_PDFA1')
      : undefined;
  if (!(intent instanceof PDFDict)) problems.push('6.2.3 no OutputIntent with S /GTS_PDFA1');
  else {
    const profile = resolve(intent.get(PDFName.of('DestOutputProfile')));
    if (!(profile instanceof PDFRawStream)) problems.push('6.2.3 the output intent embeds no ICC profile');
    else {
      const raw = /FlateDecode/.test(String(profile.dict.get(PDFName.of('Filter'))))
        ? inflateSync(profile.contents)
        : Buffer.from(profile.contents);
      const n = profile.dict.get(PDFName.of('N'));
      if (!(n instanceof PDFNumber) || n.asNumber() !== 3)
        problems.push('6.2.3 the ICC profile stream has no /N 3');
      if (
        raw.subarray(36, 40).toString('latin1') !== 'acsp' ||
        raw.subarray(16, 20).toString('latin1') !== 'RGB '
      )
        problems.push('6.2.3 the output profile is not an RGB ICC profile');
      if (!['mntr', 'prtr'].includes(raw.subarray(12, 16).toString('latin1')))
        problems.push('6.2.3 the output profile is not an output or display profile');
    }
  }
  // §6.2.11.4: every font embedded (walk the fonts of every page).
  for (const [index, page] of pdf.getPages().entries()) {
    const fonts = resolve(page.node.Resources()?.get(PDFName.of('Font')));
    if (!(fonts instanceof PDFDict)) continue;
    for (const [name, ref] of fonts.entries()) {
      const font = resolve(ref) as PDFDict;
      const descendants = resolve(font.get(PDFName.of('DescendantFonts')));
      const target = descendants instanceof PDFArray ? (resolve(descendants.get(0)) as PDFDict) : font;
      const descriptor = resolve(target.get(PDFName.of('FontDescriptor')));
      const file =
        descriptor instanceof PDFDict &&
        ['FontFile', 'FontFile2', 'FontFile3'].some((key) => descriptor.has(PDFName.of(key)));
      if (!file) problems.push(`6.2.11.4 page ${index + 1}: font ${name.toString()} is not embedded`);
    }
  }
  // §6.6.1: no JavaScript, no additional actions.
  if (catalog.has(PDFName.of('AA')) || /\/JavaScript|\/JS\s/.test(text))
    problems.push('6.6.1 the document carries JavaScript or additional actions');
  // §6.6.2: XMP metadata, not filtered, identifying PDF/A-2b, and §6.6.2.3.1 agreeing with the Info dictionary.
  const metadata = resolve(catalog.get(PDFName.of('Metadata')));
  if (!(metadata instanceof PDFRawStream)) problems.push('6.6.2 no XMP metadata stream in the catalog');
  else {
    if (metadata.dict.has(PDFName.of('Filter'))) problems.push('6.6.2.1 the metadata stream is filtered');
    const xmp = Buffer.from(metadata.contents).toString('utf8');
    if (
      !/<pdfaid:part>2<\/pdfaid:part>/.test(xmp) ||
      !/<pdfaid:conformance>B<\/pdfaid:conformance>/.test(xmp)
    )
      problems.push('6.6.4 the XMP does not identify PDF/A-2 conformance B');
    const info = resolve(context.trailerInfo.Info) as PDFDict;
    const infoText = (key: string) => {
      const value = info.get(PDFName.of(key));
      return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined;
    };
    const unescape = (s: string) =>
      s
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&');
    const xmpValue = (re: RegExp) => {
      const match = re.exec(xmp);
      return match ? unescape(match[1]!) : undefined;
    };
    const pairs: Array<[string, string | undefined]> = [
      ['Title', xmpValue(/<dc:title><rdf:Alt><rdf:li xml:lang="x-default">([^<]*)</)],
      ['Author', xmpValue(/<dc:creator><rdf:Seq><rdf:li>([^<]*)</)],
      ['Subject', xmpValue(/<dc:description><rdf:Alt><rdf:li xml:lang="x-default">([^<]*)</)],
      ['Producer', xmpValue(/<pdf:Producer>([^<]*)</)],
      ['Creator', xmpValue(/<xmp:CreatorTool>([^<]*)</)],
    ];
    for (const [key, fromXmp] of pairs) {
      if (infoText(key) !== undefined && infoText(key) !== fromXmp)
        problems.push(`6.6.2.3.1 Info ${key} "${infoText(key)}" differs from the XMP "${fromXmp}"`);
    }
    const created = pdf
      .getCreationDate()
      ?.toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
    if (created && created !== xmpValue(/<xmp:CreateDate>([^<]*)</))
      problems.push('6.6.2.3.1 Info CreationDate differs from xmp:CreateDate');
  }

  // Independent of pdf-lib: qpdf's structural check and poppler's font list.
  const dir = mkdtempSync(join(tmpdir(), 'pdfa-'));
  try {
    const file = join(dir, 'document.pdf');
    writeFileSync(file, bytes);
    const qpdf = tool('qpdf', ['--check', file]);
    if (qpdf.error) problems.push('qpdf is not installed (apt-get install qpdf; npm test installs it)');
    else if (qpdf.status !== 0) problems.push(`qpdf --check: ${qpdf.stdout}${qpdf.stderr}`.trim());
    const fonts = tool('pdffonts', [file]);
    if (fonts.error)
      problems.push('pdffonts is not installed (apt-get install poppler-utils; npm test installs it)');
    else {
      // Columns: name type encoding emb sub uni object ID; the lines after the two header lines.
      for (const line of fonts.stdout
        .split('\n')
        .slice(2)
        .filter((l) => l.trim())) {
        if (!/\s(yes)\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$/.test(line))
          problems.push(`pdffonts: not embedded: ${line.trim()}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return problems;
}
