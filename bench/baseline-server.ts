import fs from 'node:fs';
import Fastify from 'fastify';

/**
 * The throughput baseline: a bare Fastify process answering each path with a constant body captured from the real
 * server, so that the comparison measures what the platform adds (database, validation, hooks), not payload size.
 * Usage: node --import tsx bench/baseline-server.ts <bodies.json> (a JSON object of path -> body), PORT in the env.
 */
const bodies = new Map<string, string>(Object.entries(JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as Record<string, string>));
const app = Fastify();
app.get('/__ready', async () => 'ok');
app.get('/*', (req, reply) => {
  const body = bodies.get(req.url);
  if (body === undefined) return reply.code(404).send();
  return reply.type('application/json; charset=utf-8').send(body);
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
