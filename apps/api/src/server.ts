import { buildApp } from './app.ts';
import { describeDatabaseError, openDatabase, reportConnectionLost, type Database } from './db/client.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_TOTP_SECRET, seed } from './seed/seed.ts';
import { DEMO_ACCESS_CODE } from '@portale/shared/surveys';
import { loadEnv } from './env.ts';
import { createMailTransport, createSmsTransport } from './modules/messages/message-transports.ts';
import { OutboxWorker } from './modules/messages/outbox.worker.ts';
import { systemClock } from './lib/clock.ts';
import { FileSweeper } from './lib/file-sweep.ts';
import { SubstitutionScheduler } from './modules/substitutions/substitution-effects.ts';

const formatCount = new Intl.NumberFormat('it-IT', { useGrouping: 'always' }).format;
/** Progress of the first registry load, in plain words (e.g. "12.000 / 63.109 righe caricate"). */
const printRegistryProgress = (loaded: number, total: number) =>
  console.log(
    loaded === 0
      ? `Anagrafe nazionale: caricamento di ${formatCount(total)} righe (solo al primo avvio)…`
      : `Anagrafe nazionale: ${formatCount(loaded)} / ${formatCount(total)} righe caricate`,
  );

function printDemoAccounts(log: (line: string) => void, outbox: { smsDir: string; mailDir: string | null }) {
  log('');
  log(`Account dimostrativi (password per tutti: ${DEMO_PASSWORD})`);
  for (const account of DEMO_ACCOUNTS) log(`  ${account.email.padEnd(34)} ${account.description}`);
  log(`Staff (super-admin, sylla, cromos): secondo fattore TOTP con il segreto ${DEMO_TOTP_SECRET}`);
  log(
    `Codice di accesso all'indagine aperta (studenti e famiglie, 500 utilizzi): ${DEMO_ACCESS_CODE}, all'indirizzo /${DEMO_ACCESS_CODE} del sito`,
  );
  // The codes of the SMS (phone checks, the online signature of the adhesion) are read from these files.
  log(`SMS inviati (codici di verifica e di firma): un file .txt per messaggio in ${outbox.smsDir}`);
  if (outbox.mailDir) log(`E-mail inviate: un file .eml per messaggio in ${outbox.mailDir}`);
  log('');
}

async function main() {
  let env;
  try {
    env = loadEnv();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const databaseOptions = { databaseUrl: env.DATABASE_URL, pgliteDir: env.PGLITE_DIR };
  // Until the app's logger exists, a dropped connection is reported on stderr.
  let logConnectionError: (error: Error) => void = reportConnectionLost;
  let database: Database;
  let migrationsApplied: number;
  try {
    database = await openDatabase({
      ...databaseOptions,
      onConnectionError: (error) => logConnectionError(error),
    });
    // Under the start-up advisory lock on PostgreSQL: instances starting together migrate once.
    ({ applied: migrationsApplied } = await database.migrate());
  } catch (error) {
    // A wrong or unreachable database is a configuration problem: one clear line, no stack trace.
    console.error(describeDatabaseError(error, databaseOptions));
    process.exit(1);
  }
  const started = Date.now();
  // Seeding is idempotent; the lock makes a second instance wait and then find everything in place.
  const { institutesAdded } = await database.exclusive(() =>
    seed(database.db, {
      demo: env.seedDemo,
      registry: env.SEED_REGISTRY,
      dataDir: env.DATA_DIR,
      appSecret: env.APP_SECRET,
      onRegistryProgress: printRegistryProgress,
    }),
  );
  const app = await buildApp({ env, database });
  logConnectionError = (error) =>
    app.log.warn({ err: error }, 'database connection lost; the pool opens a new one on the next query');
  app.log.info(
    { migrationsApplied },
    migrationsApplied > 0 ? 'migrations applied' : 'database schema up to date',
  );
  if (institutesAdded > 0)
    app.log.info({ institutesAdded, ms: Date.now() - started }, 'national registry seeded');

  const worker = new OutboxWorker({
    db: database.db,
    clock: systemClock,
    mail: createMailTransport({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, mailDir: env.MAIL_DIR }),
    sms: createSmsTransport({ provider: env.SMS_PROVIDER, smsDir: env.SMS_DIR }),
    log: app.log,
    pollMs: env.OUTBOX_POLL_MS,
    maxAttempts: env.OUTBOX_MAX_ATTEMPTS,
  });

  // Stored files that no row names (a cascade deleted their rows): removed past a grace period.
  const sweeper = new FileSweeper(database.db, app.files, {
    intervalMs: env.FILE_SWEEP_INTERVAL_MINUTES * 60_000,
    graceMs: env.FILE_SWEEP_GRACE_MINUTES * 60_000,
    log: app.log,
  });

  // Approved substitutions take effect on their date (decision 038).
  const substitutionScheduler = new SubstitutionScheduler(database.db, {
    intervalMs: env.SUBSTITUTION_APPLY_INTERVAL_MINUTES * 60_000,
    clock: systemClock,
    log: app.log,
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await worker.stop();
    await sweeper.stop();
    await substitutionScheduler.stop();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: env.HOST, port: env.PORT });
  worker.start();
  sweeper.start();
  substitutionScheduler.start();
  app.log.info({ mail: env.SMTP_URL ? 'smtp' : env.MAIL_DIR, sms: env.SMS_DIR }, 'outbox worker started');
  if (env.seedDemo)
    printDemoAccounts((line) => console.log(line), {
      smsDir: env.SMS_DIR,
      mailDir: env.SMTP_URL ? null : env.MAIL_DIR,
    });
}

void main();
