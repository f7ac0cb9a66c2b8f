import { z } from 'zod';
import { ROLES, PERMISSIONS } from './roles.ts';

/** The user object of `GET /api/auth/me` (seed: the answer carries a `user` field). */
export const SessionUserSchema = z.object({
  id: z.number().int().positive(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  roles: z.array(z.enum(ROLES)),
  permissions: z.array(z.enum(PERMISSIONS)),
  /** Role ids followed by permission ids (product §2). */
  scope: z.array(z.string()),
  emailVerified: z.boolean(),
  phoneVerified: z.boolean(),
  mustChangePassword: z.boolean(),
  /** True for a principal whose institute's formal adhesion is not signed yet. */
  mustSignPrincipalDocument: z.boolean(),
  lastLoginAt: z.string().nullable(),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

export const MeResponseSchema = z.object({ user: SessionUserSchema });

export const LoginBodySchema = z.object({
  email: z.string().trim().min(1, 'Inserisci l’indirizzo e-mail.').max(254),
  password: z.string().min(1, 'Inserisci la password.').max(1024),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

export const TokenResponseSchema = z.object({
  token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().positive(),
});
export type TokenResponse = z.infer<typeof TokenResponseSchema>;
