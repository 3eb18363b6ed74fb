import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { systemClock } from './context.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedIfEmpty } from './seed/index.ts';
import { reportEventLoopDelay } from './http/event-loop.ts';

const config = loadConfig();
// Until the app's logger exists, a dropped database connection is told on stderr.
let connectionLost: (err: Error) => void = (err) => {
  process.stderr.write(`database connection lost: ${err.message}\n`);
};
const database = openDatabase({ ...config, onConnectionError: (err) => connectionLost(err) });
await migrateToLatest(database);
const accounts = await seedIfEmpty(database.db, config, systemClock);
const { app } = await buildApp({ config, database });
connectionLost = (err) => app.log.warn({ err }, 'database connection lost; the pool reconnects on the next query');
await app.listen({ port: config.port, host: config.host });
if (config.eventLoopReport) reportEventLoopDelay(config.eventLoopReport);

const url = `http://localhost:${config.port}`;
// Printed to the terminal once, never to the log.
if (accounts.length > 0) {
  const lines = accounts.map((a) => `  ${a.role.padEnd(8, '　')} ${a.username.padEnd(10)} ${a.password}`);
  process.stdout.write(`\n初始账号（只显示这一次）：\n${lines.join('\n')}\n`);
  if (!config.adminPassword) process.stdout.write(`管理员初始密码也写在 ${config.dataDir}/initial-admin-password.txt\n`);
}
process.stdout.write(`\n竞赛平台已启动：${url}  （后台 ${url}/backadmin.html，评审中心 ${url}/review.html，API 文档 ${url}/api/docs）\n\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await app.close();
    await database.destroy();
    process.exit(0);
  });
}
