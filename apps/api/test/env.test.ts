import { describe, expect, it } from 'vitest';
import { loadEnv } from '../src/env.ts';

const SECRET = 'a-real-production-secret-of-48-characters-000000';
const PRODUCTION = {
  NODE_ENV: 'production',
  APP_SECRET: SECRET,
  MAIL_FROM: '"Portale Scuole" <no-reply@portale-scuole.example.it>',
  CONTACT_STAFF_EMAIL: 'staff@portale-scuole.example.it',
};

describe('loadEnv', () => {
  it('applies the seed defaults in development', () => {
    const env = loadEnv({});
    expect(env.NODE_ENV).toBe('development');
    expect(env.PORT).toBe(8000);
    expect(env.ACCESS_TOKEN_TTL).toBe(2_592_000);
    expect(env.REFRESH_TOKEN_TTL).toBe(2_592_000);
    expect(env.COOKIE_SECURE).toBe(true);
    expect(env.seedDemo).toBe(true);
    expect(env.webOrigins).toEqual(['http://localhost:3000']);
  });

  it('reads the results threshold (decision 035): default 5, refused below the legal floor of 3', () => {
    expect(loadEnv({}).RESULTS_MIN_CELL).toBe(5);
    expect(loadEnv({ RESULTS_MIN_CELL: '3' }).RESULTS_MIN_CELL).toBe(3);
    expect(() => loadEnv({ RESULTS_MIN_CELL: '2' })).toThrow(/RESULTS_MIN_CELL: must be at least 3/);
    expect(() => loadEnv({ RESULTS_MIN_CELL: 'cinque' })).toThrow(/RESULTS_MIN_CELL: must be a whole number/);
  });

  it('splits the web origin allow-list', () => {
    expect(
      loadEnv({ WEB_ORIGIN: 'https://portale.example.it, https://staging.example.it ,' }).webOrigins,
    ).toEqual(['https://portale.example.it', 'https://staging.example.it']);
  });

  it.each(['abc', '70000', '-1', '80.5'])('throws a clear message for PORT=%s', (port) => {
    expect(() => loadEnv({ PORT: port })).toThrow(/^Invalid environment configuration:\n {2}- PORT: /);
  });

  it('throws a clear message in production without APP_SECRET', () => {
    expect(() => loadEnv({ NODE_ENV: 'production' })).toThrow(
      'Invalid environment configuration:\n  - APP_SECRET: must be set to a random secret in production',
    );
  });

  it('refuses the local test identity providers in production', () => {
    expect(loadEnv({ IDENTITY_TEST_PROVIDERS: 'on' }).IDENTITY_TEST_PROVIDERS).toBe('on');
    expect(() => loadEnv({ ...PRODUCTION, IDENTITY_TEST_PROVIDERS: 'on' })).toThrow(
      '  - IDENTITY_TEST_PROVIDERS: the local test identity providers are for development only',
    );
  });

  it('refuses SPID metadata from a URL in production unless AgID’s signing certificate is set', () => {
    const spid = {
      SPID_ENTITY_ID: 'https://portale.example.it/spid',
      SPID_BASE_URL: 'https://portale.example.it',
      SPID_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----',
      SPID_CERTIFICATE: '-----BEGIN CERTIFICATE-----',
      SPID_IDP_METADATA: '/etc/portale/idps.xml, https://registry.spid.gov.it/entities-idp',
    };
    expect(() => loadEnv({ ...PRODUCTION, ...spid })).toThrow(
      "  - SPID_METADATA_SIGNING_CERT: metadata read from a URL must be verified in production: set AgID's signing certificate",
    );
    expect(
      loadEnv({ ...PRODUCTION, ...spid, SPID_METADATA_SIGNING_CERT: '/etc/portale/agid.pem' })
        .SPID_METADATA_REFRESH_HOURS,
    ).toBe(24);
    expect(loadEnv({ ...PRODUCTION, ...spid, SPID_IDP_METADATA: '/etc/portale/idps.xml' }).NODE_ENV).toBe(
      'production',
    );
    expect(loadEnv({ ...spid }).SPID_METADATA_SIGNING_CERT).toBeUndefined();
  });

  it('turns the CIE federation on only with the CIE settings, its keys and the authority hints (decision 056)', () => {
    const cie = {
      CIE_ISSUER: 'https://cie.example.it',
      CIE_CLIENT_ID: 'https://portale.example.it',
      CIE_PRIVATE_JWK: '/etc/portale/cie.jwk.json',
      CIE_REDIRECT_BASE: 'https://portale.example.it',
    };
    const federation = {
      CIE_FEDERATION_TRUST_ANCHOR: 'https://registry.example.it',
      CIE_FEDERATION_TRUST_ANCHOR_JWKS: '/etc/portale/anchor.jwks.json',
      CIE_FEDERATION_AUTHORITY_HINTS: 'https://registry.example.it',
      CIE_FEDERATION_KEY: '/etc/portale/federation.jwk.json',
      CIE_ENCRYPTION_JWK: '/etc/portale/encryption.jwk.json',
    };
    expect(loadEnv({ ...cie, ...federation }).CIE_FEDERATION_TRUST_ANCHOR).toBe(
      'https://registry.example.it',
    );
    const { CIE_ENCRYPTION_JWK: _enc, ...withoutEncryption } = federation;
    expect(() => loadEnv({ ...cie, ...withoutEncryption })).toThrow(
      '  - CIE_ENCRYPTION_JWK: the CIE federation (CIE_FEDERATION_TRUST_ANCHOR) needs the CIE settings and its keys',
    );
    expect(() => loadEnv(federation)).toThrow(/CIE_ISSUER: the CIE federation/);
  });

  it('throws for a short APP_SECRET', () => {
    expect(() => loadEnv({ APP_SECRET: 'short' })).toThrow(/APP_SECRET/);
  });

  it('lists every invalid variable at once', () => {
    let message = '';
    try {
      loadEnv({ PORT: 'x', LOG_LEVEL: 'loud', DATABASE_URL: 'not a url' });
    } catch (error) {
      message = (error as Error).message;
    }
    for (const name of ['PORT', 'LOG_LEVEL', 'DATABASE_URL']) expect(message).toContain(`  - ${name}: `);
  });

  it('accepts production with a real secret and addresses, and does not seed demo accounts there', () => {
    const env = loadEnv(PRODUCTION);
    expect(env.seedDemo).toBe(false);
    expect(loadEnv({ ...PRODUCTION, SEED_DEMO: 'true' }).seedDemo).toBe(true);
  });

  it('refuses the reserved .localhost mail addresses of development in production', () => {
    let message = '';
    try {
      loadEnv({ NODE_ENV: 'production', APP_SECRET: SECRET });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(
      '  - MAIL_FROM: must be a real address in production (not a .localhost default)',
    );
    expect(message).toContain(
      '  - CONTACT_STAFF_EMAIL: must be a real address in production (not a .localhost default)',
    );
    expect(() => loadEnv({ ...PRODUCTION, MAIL_FROM: 'no-reply@scuole.localhost' })).toThrow(/MAIL_FROM/);
    expect(loadEnv({ MAIL_FROM: 'no-reply@portale-scuole.localhost' }).MAIL_FROM).toContain('.localhost');
  });

  it('reads boolean flags strictly', () => {
    expect(loadEnv({ COOKIE_SECURE: 'false' }).COOKIE_SECURE).toBe(false);
    expect(loadEnv({ COOKIE_SECURE: '0' }).COOKIE_SECURE).toBe(false);
    expect(() => loadEnv({ COOKIE_SECURE: 'no' })).toThrow(/COOKIE_SECURE/);
  });

  it('chooses the file store: disk by default, s3 only with a bucket (clear messages)', () => {
    expect(loadEnv({}).FILE_STORE).toBe('disk');
    expect(() => loadEnv({ FILE_STORE: 'ftp' })).toThrow('  - FILE_STORE: must be disk or s3');
    expect(() => loadEnv({ FILE_STORE: 's3' })).toThrow(
      '  - S3_BUCKET: must name the bucket when FILE_STORE=s3',
    );
    expect(() => loadEnv({ FILE_STORE: 's3', S3_BUCKET: 'Bucket_Sbagliato' })).toThrow(
      /S3_BUCKET: must be a valid bucket name/,
    );
    expect(() => loadEnv({ FILE_STORE: 's3', S3_BUCKET: 'portale', S3_ENDPOINT: 'minio:9000' })).toThrow(
      /S3_ENDPOINT: must be an http\(s\) URL/,
    );
    expect(() => loadEnv({ FILE_STORE: 's3', S3_BUCKET: 'portale', S3_ACCESS_KEY_ID: 'k' })).toThrow(
      /S3_SECRET_ACCESS_KEY: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/,
    );
    expect(() => loadEnv({ S3_PREFIX: 'portale' })).toThrow(/S3_PREFIX: must be empty or end with \//);
    const env = loadEnv({
      FILE_STORE: 's3',
      S3_BUCKET: 'portale-files',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_REGION: 'eu-south-1',
      S3_PREFIX: 'portale/',
    });
    expect(env).toMatchObject({
      FILE_STORE: 's3',
      S3_BUCKET: 'portale-files',
      S3_REGION: 'eu-south-1',
      S3_PREFIX: 'portale/',
    });
  });
});
