import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { loadConfig } from './config.ts';

/**
 * `npm run backup [-- <folder>]`: an online backup taken while the server runs and writes (docs/deployment.md).
 *
 * Files are copied before and after the database snapshot (SQLite's backup API in a single step; pg_dump's
 * repeatable-read snapshot). A stored file never changes once renamed into place and exists before any row names
 * it, so each file a row of the snapshot names is there for the second pass, and one deleted after the snapshot
 * (a replaced certificate, a removed data file) was already taken by the first: no row of the backup points at a
 * missing file. Files no row of the snapshot names come along and are simply not referenced.
 */

export const MANIFEST = 'manifest.json';
export const SQLITE_FILE = 'contest.sqlite';
export const PG_DUMP_FILE = 'database.pgdump';

export interface Manifest {
  format: 1;
  createdAt: string;
  dialect: 'sqlite' | 'postgres';
  database: string;
  files: { count: number; bytes: number } | null;
  secretKey: boolean;
  client: boolean;
}

const run = promisify(execFile);

/** Copies what `to` lacks of a folder, leaving out the file store's temporaries (never referenced by any row). */
function copyTree(from: string, to: string) {
  fs.cpSync(from, to, { recursive: true, force: false, errorOnExist: false, filter: (src) => path.basename(src) !== '.tmp' });
}

function measure(dir: string): { count: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    count++;
    bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return { count, bytes };
}

async function backup(target: string) {
  const config = loadConfig();
  if (fs.existsSync(target) && fs.readdirSync(target).length > 0) throw new Error(`备份目录 ${target} 已存在且不为空`);
  fs.mkdirSync(target, { recursive: true });
  const say = (line: string) => process.stdout.write(`${line}\n`);

  const filesDir = path.join(config.dataDir, 'files');
  const localFiles = !config.s3 && fs.existsSync(filesDir);
  if (localFiles) copyTree(filesDir, path.join(target, 'files'));

  let database: string;
  if (config.databaseUrl) {
    database = PG_DUMP_FILE;
    await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', '--file', path.join(target, PG_DUMP_FILE), '--dbname', config.databaseUrl]);
    const { stdout } = await run('pg_restore', ['--list', path.join(target, PG_DUMP_FILE)]);
    const tables = stdout.split('\n').filter((l) => / TABLE DATA /.test(l)).length;
    say(`数据库：PostgreSQL，pg_dump 自定义格式 -> ${PG_DUMP_FILE}（${tables} 张表的数据）`);
  } else {
    database = SQLITE_FILE;
    const source = path.join(config.dataDir, SQLITE_FILE);
    if (!fs.existsSync(source)) throw new Error(`找不到数据库文件 ${source}`);
    const live = new Database(source, { fileMustExist: true });
    try {
      live.pragma('busy_timeout = 5000');
      // All pages in one step: a step that other connections' writes interrupt would start over, one step cannot be.
      await live.backup(path.join(target, SQLITE_FILE), { progress: () => 0x7fffffff });
    } finally {
      live.close();
    }
    const copy = new Database(path.join(target, SQLITE_FILE), { fileMustExist: true });
    try {
      const check = copy.pragma('integrity_check', { simple: true });
      if (check !== 'ok') throw new Error(`备份的数据库未通过完整性检查：${String(check)}`);
      const users = copy.prepare('select count(*) as n from users').get() as { n: number };
      say(`数据库：SQLite 在线备份 -> ${SQLITE_FILE}（完整性检查 ok，${users.n} 个用户）`);
    } finally {
      copy.close();
    }
  }

  let files: Manifest['files'] = null;
  if (config.s3) {
    say(`文件：保存在 S3 存储桶 ${config.s3.bucket}，不在本次备份中（请用存储桶的版本控制或复制备份）`);
  } else if (localFiles) {
    copyTree(filesDir, path.join(target, 'files'));
    files = measure(path.join(target, 'files'));
    say(`文件：${files.count} 个，共 ${(files.bytes / 1024 / 1024).toFixed(2)} MB -> files/`);
  } else {
    say('文件：还没有上传的文件');
  }

  const keyFile = path.join(config.dataDir, 'secret.key');
  const secretKey = !config.secretKey && fs.existsSync(keyFile);
  if (secretKey) {
    fs.copyFileSync(keyFile, path.join(target, 'secret.key'));
    fs.chmodSync(path.join(target, 'secret.key'), 0o600);
    say('密钥：secret.key（身份证号和支付密钥用它加密，请与备份一起妥善保管）');
  } else if (config.secretKey) {
    say('密钥：来自环境变量 SECRET_KEY，不在备份中；恢复时请使用同一个 SECRET_KEY');
  }

  const client = fs.existsSync(config.clientDir) && fs.readdirSync(config.clientDir).length > 0;
  if (client) {
    copyTree(config.clientDir, path.join(target, 'client'));
    say('客户端安装包：client/');
  }

  const manifest: Manifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    dialect: config.databaseUrl ? 'postgres' : 'sqlite',
    database,
    files,
    secretKey,
    client,
  };
  fs.writeFileSync(path.join(target, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  say(`备份完成：${target}`);
}

if (import.meta.filename === path.resolve(process.argv[1] ?? '')) {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
  const target = path.resolve(process.argv[2] ?? path.join('backups', `contest-${stamp}`));
  backup(target).catch((err: Error) => {
    process.stderr.write(`备份失败：${err.message}\n`);
    process.exit(1);
  });
}
