// The ceiling: a bare Fastify POST route, in its own process, as the service runs in its own.
// Usage: node bench/bare-server.mjs PORT
import process from 'node:process';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/bare', async () => ({ ok: true }));
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
