import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './server.ts';

const run = promisify(execFile);
const BIN = '/usr/lib/postgresql/15/bin';

/**
 * A PostgreSQL cluster of the test's own (initdb, pg_ctl as the `postgres` user, trust authentication, a free port),
 * so that restarting it never disturbs the shared server other tests use.
 */
export interface PrivateCluster {
  port: number;
  url(database: string): string;
  createDatabase(name: string): Promise<string>;
  query(database: string, sql: string): Promise<Record<string, unknown>[]>;
  restart(): Promise<void>;
  destroy(): Promise<void>;
}

/** Runs as the `postgres` user (the server refuses to run as root). */
const asPostgres = (args: string[]) => run('runuser', ['-u', 'postgres', '--', ...args], { timeout: 60_000 });

export async function privateCluster(): Promise<PrivateCluster> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'faults-pg-'));
  fs.chmodSync(base, 0o755);
  const data = path.join(base, 'data');
  const log = path.join(base, 'log');
  await run('chown', ['postgres:postgres', base]);
  await asPostgres([`${BIN}/initdb`, '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const options = `-p ${port} -k ${base} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  await asPostgres([`${BIN}/pg_ctl`, '-D', data, '-l', log, '-o', options, '-w', 'start']);
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const query = async (database: string, sql: string) => {
    const client = new pg.Client({ connectionString: url(database) });
    await client.connect();
    try {
      return (await client.query(sql)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };
  return {
    port,
    url,
    query,
    async createDatabase(name) {
      await query('postgres', `create database ${name}`);
      return url(name);
    },
    async restart() {
      // Fast: open connections are cut off (57P01), as an operator's restart or a failover does.
      await asPostgres([`${BIN}/pg_ctl`, '-D', data, '-l', log, '-o', options, '-m', 'fast', '-w', 'restart']);
    },
    async destroy() {
      await asPostgres([`${BIN}/pg_ctl`, '-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}
