import { z } from 'zod';

export const FiguresSchema = z.object({
  institutesEnrolled: z.number().int().nonnegative(),
  participatingSites: z.number().int().nonnegative(),
  registeredTeachers: z.number().int().nonnegative(),
  updatedAt: z.string(),
});
export type Figures = z.infer<typeof FiguresSchema>;

export const DOCUMENT_CATEGORIES = ['regolamenti', 'privacy', 'guide'] as const;
export type DocumentCategory = (typeof DOCUMENT_CATEGORIES)[number];
export const DOCUMENT_CATEGORY_LABELS: Record<DocumentCategory, string> = {
  regolamenti: 'Regolamenti',
  privacy: 'Privacy e protezione dei dati',
  guide: 'Guide operative',
};

export const PublicDocumentSchema = z.object({
  id: z.number().int().positive(),
  category: z.enum(DOCUMENT_CATEGORIES),
  title: z.string(),
  description: z.string(),
  fileName: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  publishedAt: z.string(),
});
export type PublicDocument = z.infer<typeof PublicDocumentSchema>;
export const DocumentGroupSchema = z.object({
  category: z.enum(DOCUMENT_CATEGORIES),
  label: z.string(),
  documents: z.array(PublicDocumentSchema),
});
export const DocumentListSchema = z.object({ groups: z.array(DocumentGroupSchema) });
export type DocumentList = z.infer<typeof DocumentListSchema>;

export const SURVEY_STATES = ['bozza', 'aperta', 'chiusa'] as const;
export const PublicSurveySchema = z.object({
  id: z.number().int().positive(),
  title: z.string(),
  purpose: z.string(),
  audience: z.string(),
  state: z.enum(SURVEY_STATES),
  opensOn: z.string(),
  closesOn: z.string(),
});
export type PublicSurvey = z.infer<typeof PublicSurveySchema>;
