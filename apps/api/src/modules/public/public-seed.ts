import type { DbOrTx } from '../../db/transaction.ts';
import { PRIVACY_NOTICE, REGULATION, SCHOOL_GUIDE } from './document-texts.ts';
import { renderPdf, type PdfSpec } from './pdf-writer.ts';
import { existingDocumentSlugs, insertDocumentOnce, insertSurveyOnce } from './public.repository.ts';

interface SeedDocument {
  slug: string;
  category: 'regolamenti' | 'privacy' | 'guide';
  description: string;
  fileName: string;
  spec: PdfSpec;
  sortOrder: number;
}

const DOCUMENTS: SeedDocument[] = [
  { slug: 'regolamento', category: 'regolamenti', fileName: 'regolamento-programma.pdf', spec: REGULATION, sortOrder: 1,
    description: 'Finalità, fasi, impegni delle scuole e del programma, modalità di ritiro.' },
  { slug: 'informativa-privacy', category: 'privacy', fileName: 'informativa-privacy.pdf', spec: PRIVACY_NOTICE, sortOrder: 1,
    description: 'Chi tratta i dati, quali dati, perché, per quanto tempo e come esercitare i tuoi diritti.' },
  { slug: 'guida-scuole', category: 'guide', fileName: 'guida-per-le-scuole.pdf', spec: SCHOOL_GUIDE, sortOrder: 1,
    description: "Iscrizione, firma dell'adesione, registrazione del personale, visite e questionari passo per passo." },
];

/** The published PDFs (generated here, once) and the current survey; safe on every start. */
export async function seedPublicContent(db: DbOrTx, now: Date = new Date()): Promise<void> {
  const existing = await existingDocumentSlugs(db, DOCUMENTS.map((d) => d.slug));
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
  await insertSurveyOnce(db, {
    slug: 'indagine-2025-26',
    title: 'Indagine nazionale sulle scuole 2025/26',
    purpose:
      "Conoscere come le scuole organizzano la didattica, usano gli spazi e le tecnologie e si prendono cura del benessere di studenti e personale, per restituire a ogni istituto un quadro confrontabile con le altre scuole del territorio.",
    audience:
      "Gli istituti statali iscritti al programma: dirigenti e referenti per il questionario d'istituto, insegnanti ed educatori dei plessi partecipanti, e gli studenti delle loro classi, che rispondono in forma anonima con un codice di accesso.",
    state: 'aperta',
    opensOn: '2026-02-02',
    closesOn: '2026-05-29',
  });
}
