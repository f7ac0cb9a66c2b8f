// The reference of the API benchmarks: a bare Fastify route answering a fixed JSON body (no auth,
// no database, no validation), with pino at info as the API logs.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const body = readFileSync(process.argv[2], 'utf8');
const app = Fastify({ logger: { level: 'info', stream: { write() {} } } });
app.get('/', (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
