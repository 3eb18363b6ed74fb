import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { MANIFEST, PG_DUMP_FILE, SQLITE_FILE, type Manifest } from './backup.ts';
import { loadConfig } from './config.ts';

/**
 * `npm run restore -- <backup folder>`: puts a backup made by `npm run backup` into the configured DATA_DIR (and
 * DATABASE_URL). The server must be stopped, and the target must be empty: a restore never overwrites a database.
 */

const run = promisify(execFile);

async function restore(source: string) {
  const config = loadConfig();
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const manifestFile = path.join(source, MANIFEST);
  if (!fs.existsSync(manifestFile)) throw new Error(`${source} 不是 npm run backup 生成的备份（缺少 ${MANIFEST}）`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  fs.mkdirSync(config.dataDir, { recursive: true });

  if (manifest.dialect === 'postgres') {
    if (!config.databaseUrl) throw new Error('这是 PostgreSQL 的备份：请设置 DATABASE_URL 指向一个空数据库');
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ t: string | null }>("select to_regclass('users')::text as t");
      if (rows[0]?.t) throw new Error('目标数据库已有数据表：恢复只能写入空数据库');
    } finally {
      await client.end();
    }
    await run('pg_restore', [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      '--dbname',
      config.databaseUrl,
      path.join(source, PG_DUMP_FILE),
    ]);
    say('数据库：已用 pg_restore 恢复到 DATABASE_URL');
  } else {
    if (config.databaseUrl) throw new Error('这是 SQLite 的备份：请去掉 DATABASE_URL');
    const target = path.join(config.dataDir, SQLITE_FILE);
    if (fs.existsSync(target)) throw new Error(`${target} 已存在：恢复只能写入没有数据库的 DATA_DIR`);
    for (const leftover of [`${target}-wal`, `${target}-shm`]) fs.rmSync(leftover, { force: true });
    // Copied beside the target, then renamed in: an interrupted restore leaves no half database behind.
    fs.copyFileSync(path.join(source, SQLITE_FILE), `${target}.restoring`);
    fs.renameSync(`${target}.restoring`, target);
    const db = new Database(target, { fileMustExist: true });
    try {
      const check = db.pragma('integrity_check', { simple: true });
      if (check !== 'ok') throw new Error(`恢复的数据库未通过完整性检查：${String(check)}`);
    } finally {
      db.close();
    }
    say(`数据库：${target}（完整性检查 ok）`);
  }

  if (manifest.files) {
    fs.cpSync(path.join(source, 'files'), path.join(config.dataDir, 'files'), { recursive: true, force: false, errorOnExist: false });
    say(`文件：${manifest.files.count} 个 -> ${path.join(config.dataDir, 'files')}`);
  }
  if (manifest.secretKey) {
    const keyFile = path.join(config.dataDir, 'secret.key');
    const key = fs.readFileSync(path.join(source, 'secret.key'));
    if (fs.existsSync(keyFile) && !fs.readFileSync(keyFile).equals(key)) throw new Error(`${keyFile} 已存在且与备份中的密钥不同`);
    fs.writeFileSync(keyFile, key, { mode: 0o600 });
    say('密钥：secret.key');
  }
  if (manifest.client) {
    fs.cpSync(path.join(source, 'client'), config.clientDir, { recursive: true, force: false, errorOnExist: false });
    say(`客户端安装包：${config.clientDir}`);
  }
  say(`恢复完成（备份时间 ${manifest.createdAt}），现在可以启动服务器`);
}

const source = process.argv[2];
if (!source) {
  process.stderr.write('用法：npm run restore -- <备份目录>\n');
  process.exit(2);
}
restore(path.resolve(source)).catch((err: Error) => {
  process.stderr.write(`恢复失败：${err.message}\n`);
  process.exit(1);
});
