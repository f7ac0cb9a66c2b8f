import { z } from 'zod';
import {
  listResponseSchema,
  optionalEnum,
  PaginationSchema,
  QueryBooleanSchema,
  SearchTextSchema,
  sortSchema,
} from '../lists/list-query.ts';
import { DOCUMENT_CATEGORIES } from '../public/public.schemas.ts';

/** Largest PDF staff may upload (the route's body limit). */
export const DOCUMENT_MAX_BYTES = 20 * 1_048_576;

export const DOCUMENT_MESSAGES = {
  title: 'Inserisci un titolo da 3 a 200 caratteri.',
  description: 'La descrizione può contenere al massimo 1000 caratteri.',
  category: 'Scegli la categoria del documento.',
  fileName: 'Il nome del file può contenere al massimo 150 caratteri.',
  notPdf: 'Il file non è un PDF: carica un documento in formato PDF.',
  empty: 'Il file caricato è vuoto: scegli un documento PDF.',
  tooLarge: `Il file supera la dimensione massima di ${DOCUMENT_MAX_BYTES / 1_048_576} MB: riduci il PDF e riprova.`,
  notFound: 'Documento non trovato.',
} as const;

export const StaffDocumentSchema = z.object({
  id: z.number().int(),
  category: z.enum(DOCUMENT_CATEGORIES),
  title: z.string(),
  description: z.string(),
  fileName: z.string(),
  sizeBytes: z.number().int(),
  published: z.boolean(),
  publishedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type StaffDocument = z.infer<typeof StaffDocumentSchema>;

export const DOCUMENT_SORTS = ['title', 'category', 'createdAt', 'sizeBytes'] as const;
export const DocumentFiltersSchema = z.object({
  q: SearchTextSchema,
  category: optionalEnum(DOCUMENT_CATEGORIES, 'Categoria'),
  published: QueryBooleanSchema,
  sort: sortSchema(DOCUMENT_SORTS),
});
export const DocumentListQuerySchema = DocumentFiltersSchema.extend(PaginationSchema.shape);
export type DocumentListQuery = z.output<typeof DocumentListQuerySchema>;
export const DocumentListResponseSchema = listResponseSchema(StaffDocumentSchema);

const title = z
  .string({ error: DOCUMENT_MESSAGES.title })
  .trim()
  .min(3, DOCUMENT_MESSAGES.title)
  .max(200, DOCUMENT_MESSAGES.title);
const description = z
  .string({ error: DOCUMENT_MESSAGES.description })
  .trim()
  .max(1000, DOCUMENT_MESSAGES.description);
const category = z.enum(DOCUMENT_CATEGORIES, { error: DOCUMENT_MESSAGES.category });
const fileName = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() || undefined : v),
  z.string({ error: DOCUMENT_MESSAGES.fileName }).max(150, DOCUMENT_MESSAGES.fileName).optional(),
);

/** The query of an upload (the body is the PDF itself). */
export const DocumentCreateQuerySchema = z.object({
  title,
  description: description.default(''),
  category,
  fileName,
});
export const DocumentFileQuerySchema = z.object({ fileName });

export const DocumentUpdateSchema = z
  .object({
    title: title.optional(),
    description: description.optional(),
    category: category.optional(),
    published: z.boolean({ error: 'Indica se pubblicare il documento.' }).optional(),
  })
  .strict();
export type DocumentUpdate = z.output<typeof DocumentUpdateSchema>;
