import type { DbOrTx } from '../../db/transaction.ts';
import { PRIVACY_NOTICE, REGULATION, SCHOOL_GUIDE } from './document-texts.ts';
import { renderPdf, type PdfSpec } from '../../lib/render/pdf-writer.ts';
import { existingDocumentSlugs, insertDocumentOnce } from './public.repository.ts';

interface SeedDocument {
  slug: string;
  category: 'regolamenti' | 'privacy' | 'guide';
  description: string;
  fileName: string;
  spec: PdfSpec;
  sortOrder: number;
}

const DOCUMENTS: SeedDocument[] = [
  {
    slug: 'regolamento',
    category: 'regolamenti',
    fileName: 'regolamento-programma.pdf',
    spec: REGULATION,
    sortOrder: 1,
    description: 'Finalità, fasi, impegni delle scuole e del programma, modalità di ritiro.',
  },
  {
    slug: 'informativa-privacy',
    category: 'privacy',
    fileName: 'informativa-privacy.pdf',
    spec: PRIVACY_NOTICE,
    sortOrder: 1,
    description: 'Chi tratta i dati, quali dati, perché, per quanto tempo e come esercitare i tuoi diritti.',
  },
  {
    slug: 'guida-scuole',
    category: 'guide',
    fileName: 'guida-per-le-scuole.pdf',
    spec: SCHOOL_GUIDE,
    sortOrder: 1,
    description:
      "Iscrizione, firma dell'adesione, registrazione del personale, visite e questionari passo per passo.",
  },
];

/** The published PDFs (generated here, once); safe on every start. The demo surveys: `surveys-seed.ts`. */
export async function seedPublicContent(db: DbOrTx, now: Date = new Date()): Promise<void> {
  const existing = await existingDocumentSlugs(
    db,
    DOCUMENTS.map((d) => d.slug),
  );
  for (const doc of DOCUMENTS.filter((d) => !existing.has(d.slug))) {
    const content = await renderPdf(doc.spec, now);
    await insertDocumentOnce(db, {
      slug: doc.slug,
      category: doc.category,
      title: doc.spec.title,
      description: doc.description,
      fileName: doc.fileName,
      content,
      sizeBytes: content.byteLength,
      sortOrder: doc.sortOrder,
      publishedAt: now,
    });
  }
}
