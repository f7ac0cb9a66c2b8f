import { z } from 'zod';
import {
  listResponseSchema,
  optionalEnum,
  PaginationSchema,
  QueryBooleanSchema,
  SearchTextSchema,
  sortSchema,
} from '../lists/list-query.ts';
import { PersonRefSchema } from './institutes.schemas.ts';
import { ADHESION_STATES, PROVINCES, REGIONS, SCHOOL_LEVELS } from './registry.constants.ts';

export const SchoolSiteSummarySchema = z.object({
  id: z.number().int(),
  ministryCode: z.string(),
  name: z.string(),
  schoolLevel: z.enum(SCHOOL_LEVELS),
  typeLabel: z.string(),
  region: z.string(),
  province: z.string(),
  municipalityName: z.string(),
  participating: z.boolean(),
  instituteId: z.number().int(),
  instituteCode: z.string(),
  instituteName: z.string(),
  isStateSchool: z.boolean(),
  adhesionState: z.enum(ADHESION_STATES),
});
export type SchoolSiteSummary = z.infer<typeof SchoolSiteSummarySchema>;

export const SCHOOL_SITE_SORTS = [
  'name',
  'ministryCode',
  'municipalityName',
  'province',
  'region',
  'schoolLevel',
  'instituteName',
  'adhesionState',
] as const;

export const SchoolSiteFiltersSchema = z.object({
  q: SearchTextSchema,
  region: optionalEnum(REGIONS, 'Regione'),
  province: optionalEnum(PROVINCES, 'Provincia'),
  level: optionalEnum(SCHOOL_LEVELS, 'Grado scolastico'),
  adhesionState: optionalEnum(ADHESION_STATES, 'Stato di adesione'),
  stateSchool: QueryBooleanSchema,
  participating: QueryBooleanSchema,
  instituteId: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number({ error: 'Istituto non valido.' }).int().positive().optional(),
  ),
  sort: sortSchema(SCHOOL_SITE_SORTS),
});
export const SchoolSiteListQuerySchema = SchoolSiteFiltersSchema.extend(PaginationSchema.shape);
export type SchoolSiteListQuery = z.output<typeof SchoolSiteListQuerySchema>;
export const SchoolSiteListResponseSchema = listResponseSchema(SchoolSiteSummarySchema);

export const SchoolSiteDetailSchema = SchoolSiteSummarySchema.extend({
  municipalityCode: z.string(),
  address: z.string().nullable(),
  postalCode: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  detector: PersonRefSchema.nullable(),
  teachers: z.array(PersonRefSchema.extend({ kind: z.string(), reviewState: z.string() })),
  updatedAt: z.string(),
});
export type SchoolSiteDetail = z.infer<typeof SchoolSiteDetailSchema>;

/** The fields staff may correct on a plesso. */
export const SchoolSiteUpdateSchema = z
  .object({
    name: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() : v),
      z
        .string()
        .min(2, 'Il nome deve avere almeno 2 caratteri.')
        .max(200, 'Il nome può contenere al massimo 200 caratteri.')
        .optional(),
    ),
    address: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() || null : v),
      z.string().max(200, 'L’indirizzo può contenere al massimo 200 caratteri.').nullable().optional(),
    ),
    postalCode: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() || null : v),
      z
        .string()
        .regex(/^\d{5}$/, 'Il CAP è formato da 5 cifre.')
        .nullable()
        .optional(),
    ),
    participating: z.boolean({ error: 'Indica se il plesso partecipa.' }).optional(),
  })
  .strict();
export type SchoolSiteUpdate = z.output<typeof SchoolSiteUpdateSchema>;
