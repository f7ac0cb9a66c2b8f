import { z } from 'zod';
import { NewPasswordSchema, refinePasswordWithContext } from './password.schemas.ts';
import {
  MobilePhoneSchema,
  PersonalEmailSchema,
  PersonNameSchema,
  REGISTRATION_MESSAGES,
  SubjectsSchema,
  TaxCodeSchema,
  TEACHER_KINDS,
} from './registration.schemas.ts';

/** What a registration form sends (the password policy makes this part of `@portale/shared/accounts/password`). */
export const RegistrationBodySchema = z
  .object({
    kind: z.enum(TEACHER_KINDS, { error: 'Tipo di registrazione non valido.' }),
    firstName: PersonNameSchema,
    lastName: PersonNameSchema,
    email: PersonalEmailSchema,
    phone: MobilePhoneSchema,
    password: NewPasswordSchema,
    taxCode: TaxCodeSchema.optional().nullable(),
    schoolSiteId: z.number().int().positive().optional().nullable(),
    subjects: SubjectsSchema.default([]),
    privacyAccepted: z.literal(true, { error: REGISTRATION_MESSAGES.privacy }),
  })
  .superRefine((value, ctx) => {
    refinePasswordWithContext(value, ctx);
    if (value.kind !== 'altro' && !value.taxCode) {
      ctx.addIssue({ code: 'custom', path: ['taxCode'], message: REGISTRATION_MESSAGES.taxCodeRequired });
    }
    if (value.kind !== 'altro' && !value.schoolSiteId) {
      ctx.addIssue({
        code: 'custom',
        path: ['schoolSiteId'],
        message: REGISTRATION_MESSAGES.schoolSiteRequired,
      });
    }
    if (value.kind === 'insegnante' && value.subjects.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['subjects'], message: REGISTRATION_MESSAGES.subjectsRequired });
    }
  });
export type RegistrationBody = z.input<typeof RegistrationBodySchema>;
