// The floor of an HTTP endpoint over the same SQL (issue 40, decision 060): a bare Fastify route per
// scenario that runs the statements recorded from the repository code (bench/lib/national-sql.ts) on
// a raw pg pool, side by side as the SQL reference does, and answers their rows as JSON. No session,
// hooks, permission, validation, query builder or mapping: what any Node HTTP server pays to serve
// that SQL, with pino at info as the API logs.
// Usage: DATABASE_URL=… PORT=… node bench/lib/bare-sql-server.mjs statements.json
//   statements.json: one list of `{ name, text, values }` per scenario; GET /s/<index> runs one.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';

const scenarios = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: { level: 'info', stream: { write() {} } } });
app.get('/health', async () => ({ status: 'ok' }));
app.get('/s/:index', async (request, reply) => {
  const statements = scenarios[Number(request.params.index)];
  if (!statements) return reply.code(404).send({ message: 'unknown scenario' });
  const results = await Promise.all(statements.map((s) => pool.query(s)));
  return reply
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ items: results[0].rows, more: results.slice(1).map((r) => r.rows) }));
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
const stop = () => app.close().then(() => pool.end().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
