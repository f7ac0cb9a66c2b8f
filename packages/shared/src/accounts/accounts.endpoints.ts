/** Paths of the accounts API (issue 4). `:param` segments are filled by the caller. */
export const ACCOUNT_PATHS = {
  registrations: '/api/registrations',
  schoolSiteSearch: '/api/school-sites/search',
  emailVerificationConfirm: '/api/email-verifications/confirm',
  emailVerificationResend: '/api/email-verifications/resend',
  phoneVerifications: '/api/phone-verifications',
  phoneVerification: '/api/phone-verifications/:verificationId',
  phoneVerificationConfirm: '/api/phone-verifications/:verificationId/confirm',
  phoneVerificationResend: '/api/phone-verifications/:verificationId/resend',
  accountProfile: '/api/account/profile',
  accountPhoneVerifications: '/api/account/phone-verifications',
  accountExport: '/api/account/export',
  accountDeletionRequest: '/api/account/deletion-request',
  forgotPassword: '/api/auth/forgot-password',
  resetPassword: '/api/auth/reset-password',
  changePassword: '/api/auth/change-password',
  mfaVerify: '/api/auth/mfa/verify',
  mfaReset: '/api/users/:userId/mfa/reset',
  sessions: '/api/auth/sessions',
  session: '/api/auth/sessions/:sessionId',
  revokeOtherSessions: '/api/auth/sessions/revoke-others',
} as const;

/** Replaces `:name` segments of a path with encoded values. */
export function buildPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z]+)/g, (_m, name: string) => encodeURIComponent(String(params[name])));
}
