import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Database_ } from '../server/src/db/database.ts';
import type { Spawned } from './processes.ts';

export const WORK_BYTES = 5 * 1024 * 1024;
export const RSS_BUDGET_BYTES = 300 * 1024 * 1024;
const CHUNK = 64 * 1024;
const UPLOAD_PATH = '/api/review/works/upload';
// One shared pattern: 200 uploads in flight hold a chunk each, never 200 copies of 5 MB.
const PATTERN = Buffer.alloc(CHUNK, 'contest-bench-works ');

export interface RushResult {
  uploads: number;
  acknowledged: number;
  /** Versions in the database with the right size and checksum. */
  inDatabase: number;
  /** Files in the store with the right size. */
  onDisk: number;
  seconds: number;
  idleRssBytes: number;
  peakRssBytes: number;
  failures: string[];
}

/** A work's bytes, made as they are sent: a team-specific first chunk, then the shared pattern. */
function workBody(teamId: number, hash: ReturnType<typeof createHash>): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= WORK_BYTES) return void this.push(null);
      let chunk = PATTERN.subarray(0, Math.min(CHUNK, WORK_BYTES - sent));
      if (sent === 0) {
        chunk = Buffer.from(chunk);
        chunk.write(`team ${teamId} `);
      }
      sent += chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
}

function request(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: Readable,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body) body.pipe(req);
    else req.end();
  });
}

async function upload(base: string, token: string, teamId: number, questionId: number): Promise<string> {
  const auth = { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' };
  const meta = { questionId: String(questionId), filename: `team-${teamId}.zip` };
  const created = await request(base + UPLOAD_PATH, 'POST', {
    ...auth,
    'upload-length': String(WORK_BYTES),
    'upload-metadata': Object.entries(meta)
      .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
      .join(','),
  });
  if (created.status !== 201) throw new Error(`team ${teamId}: creation answered ${created.status} ${created.text}`);
  const location = new URL(String(created.headers.location), base + UPLOAD_PATH + '/').toString();
  const hash = createHash('sha256');
  const done = await request(
    location,
    'PATCH',
    { ...auth, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': String(WORK_BYTES) },
    workBody(teamId, hash),
  );
  if (done.status !== 204) throw new Error(`team ${teamId}: upload answered ${done.status} ${done.text}`);
  return hash.digest('hex');
}

/**
 * The deadline rush: every team of the rush competition uploads a 5 MB work at the same moment through tus. Counts
 * what the server acknowledged, then checks each acknowledged work in the database and in the file store, and samples
 * the server's resident memory throughout.
 */
export async function deadlineRush(
  server: Spawned,
  database: Database_,
  dataDir: string,
  rush: { questionId: number; tokens: string[]; teamIds: number[] },
): Promise<RushResult> {
  // Idle: started, one request served.
  await fetch(server.url + '/api/competition/public/list');
  const idleRssBytes = server.rss();
  let peak = idleRssBytes;
  const sampler = setInterval(() => {
    peak = Math.max(peak, server.rss());
  }, 50);
  const started = performance.now();
  const outcomes = await Promise.allSettled(rush.teamIds.map((teamId, i) => upload(server.url, rush.tokens[i]!, teamId, rush.questionId)));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const peakRssBytes = Math.max(peak, server.peakRss());

  const expected = new Map<number, string>();
  const failures: string[] = [];
  outcomes.forEach((o, i) => {
    if (o.status === 'fulfilled') expected.set(rush.teamIds[i]!, o.value);
    else failures.push(String(o.reason instanceof Error ? o.reason.message : o.reason));
  });
  const works = await database.db.selectFrom('works').select(['teamId', 'fileKey', 'size', 'sha256']).where('questionId', '=', rush.questionId).execute();
  let inDatabase = 0;
  let onDisk = 0;
  for (const w of works) {
    if (expected.get(w.teamId) !== w.sha256 || Number(w.size) !== WORK_BYTES) continue;
    inDatabase++;
    const file = path.join(dataDir, 'files', w.fileKey);
    if (fs.existsSync(file) && fs.statSync(file).size === WORK_BYTES) onDisk++;
  }
  return { uploads: rush.teamIds.length, acknowledged: expected.size, inDatabase, onDisk, seconds, idleRssBytes, peakRssBytes, failures: failures.slice(0, 5) };
}
