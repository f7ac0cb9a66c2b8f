import { z } from 'zod';
import {
  optionalEnum,
  PaginationSchema,
  QueryBooleanSchema,
  SearchTextSchema,
  sortSchema,
  listResponseSchema,
} from '../lists/list-query.ts';
import { ADHESION_STATES, PROVINCES, REGIONS, SCHOOL_LEVELS } from './registry.constants.ts';

const isoDateTime = z.string();

/** A person linked to an institute (principal, first contact, teacher) as staff see them. */
export const PersonRefSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
});
export type PersonRef = z.infer<typeof PersonRefSchema>;

export const InstituteSummarySchema = z.object({
  id: z.number().int(),
  ministryCode: z.string(),
  name: z.string(),
  type: z.string(),
  isStateSchool: z.boolean(),
  region: z.string(),
  province: z.string(),
  municipalityName: z.string(),
  adhesionState: z.enum(ADHESION_STATES),
  adhesionStateChangedAt: isoDateTime.nullable(),
  schoolSiteCount: z.number().int(),
});
export type InstituteSummary = z.infer<typeof InstituteSummarySchema>;

export const INSTITUTE_SORTS = [
  'name',
  'ministryCode',
  'municipalityName',
  'province',
  'region',
  'adhesionState',
  'adhesionStateChangedAt',
  'schoolSiteCount',
] as const;

/** Filters shared by the list and its export (the export downloads exactly what the list shows). */
export const InstituteFiltersSchema = z.object({
  q: SearchTextSchema,
  region: optionalEnum(REGIONS, 'Regione'),
  province: optionalEnum(PROVINCES, 'Provincia'),
  level: optionalEnum(SCHOOL_LEVELS, 'Grado scolastico'),
  adhesionState: optionalEnum(ADHESION_STATES, 'Stato di adesione'),
  stateSchool: QueryBooleanSchema,
  sort: sortSchema(INSTITUTE_SORTS),
});
export const InstituteListQuerySchema = InstituteFiltersSchema.extend(PaginationSchema.shape);
export type InstituteListQuery = z.output<typeof InstituteListQuerySchema>;
export const InstituteListResponseSchema = listResponseSchema(InstituteSummarySchema);

export const AdhesionTransitionSchema = z.object({
  state: z.enum(ADHESION_STATES),
  at: isoDateTime,
  actor: z.string().nullable(),
  note: z.string().nullable(),
});

export const InstituteSchoolSiteSchema = z.object({
  id: z.number().int(),
  ministryCode: z.string(),
  name: z.string(),
  schoolLevel: z.enum(SCHOOL_LEVELS),
  municipalityName: z.string(),
  participating: z.boolean(),
});

export const InstituteDetailSchema = InstituteSummarySchema.extend({
  municipalityCode: z.string(),
  address: z.string().nullable(),
  postalCode: z.string().nullable(),
  email: z.string().nullable(),
  certifiedEmail: z.string().nullable(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  principal: PersonRefSchema.nullable(),
  firstContact: PersonRefSchema.nullable(),
  teachers: z.array(
    PersonRefSchema.extend({
      schoolSiteId: z.number().int().nullable(),
      kind: z.string(),
      reviewState: z.string(),
    }),
  ),
  schoolSites: z.array(InstituteSchoolSiteSchema),
  adhesionHistory: z.array(AdhesionTransitionSchema),
  updatedAt: isoDateTime,
});
export type InstituteDetail = z.infer<typeof InstituteDetailSchema>;

const optionalText = (max: number, message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() || null : v),
    z.string().max(max, message).nullable().optional(),
  );

/** The fields staff may correct; each is optional (PATCH) and `null`/empty clears it. */
export const InstituteUpdateSchema = z
  .object({
    address: optionalText(200, 'L’indirizzo può contenere al massimo 200 caratteri.'),
    postalCode: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() || null : v),
      z
        .string()
        .regex(/^\d{5}$/, 'Il CAP è formato da 5 cifre.')
        .nullable()
        .optional(),
    ),
    email: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim().toLowerCase() || null : v),
      z.email('Inserisci un indirizzo e-mail valido.').max(254).nullable().optional(),
    ),
    certifiedEmail: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim().toLowerCase() || null : v),
      z.email('Inserisci un indirizzo PEC valido.').max(254).nullable().optional(),
    ),
    phone: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() || null : v),
      z
        .string()
        .regex(/^\+?[0-9 ]{6,20}$/, 'Inserisci un numero di telefono valido (solo cifre e spazi).')
        .nullable()
        .optional(),
    ),
    website: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() || null : v),
      z
        .url({ protocol: /^https?$/, error: 'Inserisci un indirizzo web che inizia con https://.' })
        .max(300)
        .nullable()
        .optional(),
    ),
  })
  .strict();
export type InstituteUpdate = z.output<typeof InstituteUpdateSchema>;
