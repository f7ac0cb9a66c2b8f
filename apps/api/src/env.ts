import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** Development default of APP_SECRET (refused in production). */
export const DEV_APP_SECRET = 'dev-only-secret-change-me-in-production-0123456789';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    HOST: z.string().default('localhost'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8000),
    /** Comma-separated allow-list of web origins (CORS with credentials). */
    WEB_ORIGIN: z.string().default('http://localhost:3000'),
    DATABASE_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional()),
    PGLITE_DIR: z.string().default(`${repoRoot}var/pglite`),
    APP_SECRET: z.string().min(32).default(DEV_APP_SECRET),
    ACCESS_TOKEN_TTL: z.coerce.number().int().positive().default(2_592_000),
    REFRESH_TOKEN_TTL: z.coerce.number().int().positive().default(2_592_000),
    COOKIE_SECURE: flag.default(true),
    COOKIE_DOMAIN: z.string().optional(),
    TRUST_PROXY: z.string().default('false'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    SEED_DEMO: flag.optional(),
    /** full: the whole national registry; sample: two provinces (fast, for tests); none. */
    SEED_REGISTRY: z.enum(['full', 'sample', 'none']).default('full'),
    DATA_DIR: z.string().default(`${repoRoot}data`),
    /** Requests per minute: anonymous traffic per IP, and signed-in traffic per user (schools share one IP). */
    RATE_LIMIT_MAX: z.coerce.number().int().positive().default(600),
    RATE_LIMIT_USER_MAX: z.coerce.number().int().positive().default(1200),
    /**
     * Hourly ceilings for the whole portal, whatever the source address (each send costs money or mail
     * reputation). SMS codes, registrations and contact messages go to addresses nobody has verified:
     * past their ceiling they are refused. E-mails to existing accounts (reset, verification link) are
     * counted only when one is really sent; past their ceiling staff are alerted and they still go out.
     */
    GLOBAL_SMS_MAX_PER_HOUR: z.coerce.number().int().positive().default(600),
    GLOBAL_REGISTRATIONS_MAX_PER_HOUR: z.coerce.number().int().positive().default(600),
    GLOBAL_EMAILS_MAX_PER_HOUR: z.coerce.number().int().positive().default(1200),
    GLOBAL_CONTACT_MAX_PER_HOUR: z.coerce.number().int().positive().default(120),
    /** Failed access-code look-ups per hour across all addresses; past it, addresses that keep failing are refused. */
    GLOBAL_ACCESS_CODE_FAILURES_MAX_PER_HOUR: z.coerce.number().int().positive().default(3000),
    /** The share (percent) of each hourly ceiling one IP (or signed-in user) may take: one client never empties a pool. */
    GLOBAL_CLIENT_SHARE_PERCENT: z.coerce.number().int().min(1).max(100).default(5),
    LOGIN_SLOWDOWN_AFTER: z.coerce.number().int().positive().default(5),
    LOGIN_LOCK_AFTER: z.coerce.number().int().positive().default(10),
    LOGIN_LOCK_MINUTES: z.coerce.number().int().positive().default(15),
    LOGIN_IP_MAX_FAILURES: z.coerce.number().int().positive().default(50),
    /** Base URL of the web app used in e-mailed links; defaults to the first WEB_ORIGIN. */
    PUBLIC_WEB_URL: z.string().url().optional(),
    /** smtp(s)://user:pass@host:port; without it e-mails are written as .eml files under MAIL_DIR. */
    SMTP_URL: z.string().url().optional(),
    MAIL_FROM: z.string().default('"Portale Scuole" <no-reply@portale-scuole.localhost>'),
    MAIL_DIR: z.string().default(`${repoRoot}var/mail`),
    /** SMS adapter: only `file` (one .txt per SMS under SMS_DIR) exists so far. */
    SMS_PROVIDER: z.enum(['file']).default('file'),
    SMS_DIR: z.string().default(`${repoRoot}var/sms`),
    /** Where uploaded files go (decision 030): `disk` (under FILE_STORE_DIR) or `s3` (an S3-compatible bucket). */
    FILE_STORE: z.enum(['disk', 's3'], { error: 'must be disk or s3' }).default('disk'),
    /** Uploaded and generated files (decision 030): one file per id under this directory, never in the database. */
    FILE_STORE_DIR: z.string().default(`${repoRoot}var/files`),
    /** The photos of visit reports (issue 39, decision 055): the total a detector may store, in MB. */
    DETECTOR_PHOTO_QUOTA_MB: z.coerce.number().int().positive().default(500),
    /** Where tus keeps photo uploads in progress (decision 055; default FILE_STORE_DIR/tus-uploads, a shared volume with several instances). */
    PHOTO_UPLOAD_DIR: z.string().optional(),
    /** FILE_STORE=s3: the bucket (required), the endpoint of an S3-compatible server (MinIO…; AWS when empty), the region. */
    S3_BUCKET: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .regex(
          /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
          'must be a valid bucket name (3-63 lower-case letters, digits, dots, hyphens)',
        )
        .optional(),
    ),
    S3_ENDPOINT: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .regex(/^https?:\/\/[^\s/]+(\/\S*)?$/, 'must be an http(s) URL such as https://s3.example.it')
        .optional(),
    ),
    S3_REGION: z.string().min(1, 'must not be empty').default('us-east-1'),
    /** Bucket in the URL path (default: on when S3_ENDPOINT is set, as MinIO wants). */
    S3_FORCE_PATH_STYLE: flag.optional(),
    /** Credentials; when absent the SDK's own chain is used (AWS_ACCESS_KEY_ID…, a profile, an instance role). */
    S3_ACCESS_KEY_ID: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    S3_SECRET_ACCESS_KEY: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    /** Object names start with this (e.g. `portale/`): one bucket may hold other things. */
    S3_PREFIX: z
      .string()
      .regex(/^([A-Za-z0-9._-]+\/)*$/, 'must be empty or end with / (e.g. portale/)')
      .default(''),
    /** The sweep of stored files no row names: every this many minutes (0 = never; the script runs it by hand). */
    FILE_SWEEP_INTERVAL_MINUTES: z.coerce.number().int().min(0).default(360),
    /** Approved substitutions take effect on their date: checked at start and every this many minutes (decision 038; 0 = never). */
    SUBSTITUTION_APPLY_INTERVAL_MINUTES: z.coerce.number().int().min(0).default(15),
    /** A stored file younger than this (minutes) is never swept: its upload may still be in progress. */
    FILE_SWEEP_GRACE_MINUTES: z.coerce.number().int().min(1).default(120),
    /** Exports (CSV/XLSX) that may run at once in this instance; one more is refused with 429 and Retry-After. */
    EXPORT_CONCURRENCY: z.coerce.number().int().positive().default(2),
    /** Searches of the big lists (registry) that may run at once in this instance (default 1 embedded, 4 on PostgreSQL); a few more wait up to 3 s, then 503. */
    HEAVY_LIST_CONCURRENCY: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.coerce.number().int().positive().optional(),
    ),
    /** PostgreSQL only: a list query that runs longer than this (ms) is cancelled (an Italian 503). */
    LIST_STATEMENT_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    OUTBOX_POLL_MS: z.coerce.number().int().positive().default(2000),
    OUTBOX_MAX_ATTEMPTS: z.coerce.number().int().positive().default(12),
    /** Comma-separated roles that must use a second factor (TOTP). */
    MFA_ROLES: z.string().default('super-admin,sylla,cromos'),
    /** Requests per minute and IP on the public account endpoints (search, forgot password, codes). */
    ACCOUNT_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(20),
    /** Contact form: messages per IP and window (in memory, the IP is never stored). */
    CONTACT_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(5),
    CONTACT_RATE_LIMIT_WINDOW_MS: z.coerce.number().int().positive().default(600_000),
    /** Where contact-form messages are sent (staff mailbox). */
    CONTACT_STAFF_EMAIL: z.string().email().default('staff@portale-scuole.localhost'),
    /** Teachers' access codes (decision 029): uses of one code (a class), codes a teacher makes per day, answers per plesso per day through teachers' codes. */
    ACCESS_CODE_TEACHER_MAX_USES: z.coerce.number().int().positive().max(500).default(40),
    ACCESS_CODE_TEACHER_MAX_CODES_PER_DAY: z.coerce.number().int().positive().default(150),
    ACCESS_CODE_SITE_MAX_USES_PER_DAY: z.coerce.number().int().positive().default(1500),
    /**
     * Qualified signatures (decision 032): the ETSI TS 119 612 trusted list, from a URL (production,
     * fetched again every TRUSTED_LIST_REFRESH_MINUTES) or a file (development), and the PEM file of
     * the list operator's signing certificates its XML signature is verified with. Without them, no
     * uploaded signature is accepted.
     */
    TRUSTED_LIST_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional()),
    TRUSTED_LIST_FILE: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    TRUSTED_LIST_SIGNER_CERTS: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    TRUSTED_LIST_REFRESH_MINUTES: z.coerce.number().int().positive().default(360),
    /**
     * Public results (decision 035): the smallest group or count published, and the dominance rule's
     * "all but fewer than this". The legal floor is 3 (statistical releases); 5 is the default.
     */
    RESULTS_MIN_CELL: z.coerce
      .number({ error: 'must be a whole number (3 or more; default 5)' })
      .int('must be a whole number (3 or more; default 5)')
      .min(
        3,
        'must be at least 3: smaller groups cannot be published (statistical releases, GU 14/01/2019 art. 5)',
      )
      .max(20, 'must be at most 20')
      .default(5),
    /**
     * Closed surveys' results are computed in the background and stored (decision 058): at start,
     * when a survey closes, and every this many seconds (what a change after closing made stale).
     */
    RESULTS_PRECOMPUTE_SECONDS: z.coerce.number().int().min(10).max(86_400).default(60),
    /**
     * Login with CIE (decision 048): the provider's issuer URL (its discovery document is read from
     * it), our client id, our private signing key (a JWK as JSON, or the path of a file holding it)
     * and the public base URL of the API the callback is reached at. All four, or none: without them
     * the CIE button is not shown and its routes answer 404.
     */
    CIE_ISSUER: z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional()),
    CIE_CLIENT_ID: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    CIE_PRIVATE_JWK: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    CIE_REDIRECT_BASE: z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional()),
    /**
     * CIE through the SPID/CIE OpenID Connect Federation (decision 056), on when the trust anchor is
     * set: then CIE_ISSUER is the provider's entity id, CIE_CLIENT_ID our entity id, and the trust
     * anchor's public keys (JWKS), our authority hints (comma-separated entity ids), our federation
     * key (a private JWK distinct from CIE_PRIVATE_JWK) and our encryption key (a private RSA JWK) are
     * needed; trust marks (JSON array of `{id, trust_mark}`) and the provider's required trust mark
     * ids (comma-separated) are optional. JWK/JSON values may be a file path instead.
     */
    CIE_FEDERATION_TRUST_ANCHOR: z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional()),
    CIE_FEDERATION_TRUST_ANCHOR_JWKS: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    CIE_FEDERATION_AUTHORITY_HINTS: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    CIE_FEDERATION_KEY: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    CIE_ENCRYPTION_JWK: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    CIE_FEDERATION_TRUST_MARKS: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    CIE_FEDERATION_REQUIRED_TRUST_MARKS: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.string().optional(),
    ),
    /**
     * Login with SPID (decision 052, SAML 2.0): our entity id, the public base URL of the API (the
     * assertion consumer service and the metadata are under it), our signing key and certificate (PEM,
     * or the path of a file holding it), and the identity providers' metadata (comma-separated file
     * paths or URLs). All five, or none: without them the SPID button is not shown and its routes 404.
     * The organisation's data written in our metadata (AgID extensions) follow.
     */
    SPID_ENTITY_ID: z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional()),
    SPID_BASE_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional()),
    SPID_PRIVATE_KEY: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    SPID_CERTIFICATE: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    SPID_IDP_METADATA: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    /**
     * AgID's certificate (PEM, or the path of a file) that signs the registry of the identity
     * providers' metadata: with it, a metadata document counts only if it signed the whole of it, and
     * only until its `validUntil`. Required in production when SPID_IDP_METADATA names a URL.
     */
    SPID_METADATA_SIGNING_CERT: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
    /** Hours after which the providers' metadata are read again (the last good copy stays meanwhile). */
    SPID_METADATA_REFRESH_HOURS: z.coerce
      .number()
      .positive()
      .max(24 * 7)
      .default(24),
    SPID_ORGANIZATION_NAME: z.string().default('Portale Scuole'),
    SPID_ORGANIZATION_URL: z.string().url().default('http://localhost:5173'),
    /** The IPA code of the public administration (AgID: `spid:IPACode` of a public service provider). */
    SPID_IPA_CODE: z.string().default('portale_scuole_test'),
    SPID_CONTACT_EMAIL: z.string().email().default('spid@portale-scuole.localhost'),
    SPID_CONTACT_PHONE: z.string().optional(),
    /**
     * `on` when CIE and SPID above are `npm start`'s local test providers (development only): the
     * login pages then say so. Refused in production.
     */
    IDENTITY_TEST_PROVIDERS: z.enum(['on', 'off']).default('off'),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && env.APP_SECRET.startsWith('dev-only')) {
      ctx.addIssue({
        code: 'custom',
        path: ['APP_SECRET'],
        message: 'must be set to a random secret in production',
      });
    }
    if (env.NODE_ENV === 'production' && env.IDENTITY_TEST_PROVIDERS === 'on') {
      ctx.addIssue({
        code: 'custom',
        path: ['IDENTITY_TEST_PROVIDERS'],
        message: 'the local test identity providers are for development only',
      });
    }
    // The development defaults name the reserved `.localhost` domain: mail from or to it goes nowhere.
    if (env.NODE_ENV === 'production') {
      for (const name of ['MAIL_FROM', 'CONTACT_STAFF_EMAIL'] as const) {
        if (/\.localhost\b/i.test(env[name]))
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'must be a real address in production (not a .localhost default)',
          });
      }
    }
    const cie = ['CIE_ISSUER', 'CIE_CLIENT_ID', 'CIE_PRIVATE_JWK', 'CIE_REDIRECT_BASE'] as const;
    if (cie.some((name) => env[name]) && !cie.every((name) => env[name])) {
      for (const name of cie.filter((n) => !env[n]))
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'CIE needs all of CIE_ISSUER, CIE_CLIENT_ID, CIE_PRIVATE_JWK, CIE_REDIRECT_BASE (or none)',
        });
    }
    const federation = [
      'CIE_FEDERATION_TRUST_ANCHOR_JWKS',
      'CIE_FEDERATION_AUTHORITY_HINTS',
      'CIE_FEDERATION_KEY',
      'CIE_ENCRYPTION_JWK',
    ] as const;
    if (env.CIE_FEDERATION_TRUST_ANCHOR) {
      for (const name of [...cie, ...federation].filter((n) => !env[n]))
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'the CIE federation (CIE_FEDERATION_TRUST_ANCHOR) needs the CIE settings and its keys',
        });
    }
    const spid = [
      'SPID_ENTITY_ID',
      'SPID_BASE_URL',
      'SPID_PRIVATE_KEY',
      'SPID_CERTIFICATE',
      'SPID_IDP_METADATA',
    ] as const;
    if (spid.some((name) => env[name]) && !spid.every((name) => env[name])) {
      for (const name of spid.filter((n) => !env[n]))
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `SPID needs all of ${spid.join(', ')} (or none)`,
        });
    }
    if (
      env.NODE_ENV === 'production' &&
      !env.SPID_METADATA_SIGNING_CERT &&
      (env.SPID_IDP_METADATA ?? '').split(',').some((s) => /^\s*https?:/.test(s))
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['SPID_METADATA_SIGNING_CERT'],
        message: "metadata read from a URL must be verified in production: set AgID's signing certificate",
      });
    }
    if (env.FILE_STORE === 's3' && !env.S3_BUCKET) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: 'must name the bucket when FILE_STORE=s3',
      });
    }
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'],
        message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both or neither',
      });
    }
  });

export type Env = z.infer<typeof EnvSchema> & {
  seedDemo: boolean;
  webOrigins: string[];
  publicWebUrl: string;
  mfaRoles: string[];
};

/** Parses the environment; exits with a clear message when it is invalid. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  const env = result.data;
  return {
    ...env,
    seedDemo: env.SEED_DEMO ?? env.NODE_ENV !== 'production',
    webOrigins: env.WEB_ORIGIN.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    publicWebUrl: (env.PUBLIC_WEB_URL ?? env.WEB_ORIGIN.split(',')[0]!.trim()).replace(/\/$/, ''),
    mfaRoles: env.MFA_ROLES.split(',')
      .map((r) => r.trim())
      .filter(Boolean),
  };
}
