import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadAnswers, scoreSubmission, type Evaluation } from '../server/src/scoring/score.ts';

export const ROWS = 1_000_000;

export interface ScoringRun {
  /** Seconds to score the file with the platform's code (answers already loaded, as the scoring job holds them). */
  platformSeconds: number;
  /** Seconds for a plain loop that reads the same file and splits it into lines and fields. */
  plainSeconds: number;
  ratio: number;
  /** Growth of the heap and of the resident set while scoring, over what they were with the answers loaded. */
  heapGrowthBytes: number;
  rssGrowthBytes: number;
  answersSeconds: number;
  fileBytes: number;
  score: number | null;
  /** The rows the platform scored: the file's, or the figure is not the one it names. */
  rowsScored: number;
  /** Seconds to score the same file without the private rows' fingerprint (issue 37), and the fingerprint's share. */
  withoutFingerprintSeconds: number;
  fingerprintOverhead: number;
  /** The scoring pass left a fingerprint (else the overhead figure measures nothing). */
  fingerprinted: boolean;
}

export interface ScoringResult {
  rows: number;
  rmse: ScoringRun;
  auc: ScoringRun;
}

/** Writes a CSV in 10,000-row slices, so that making a 1,000,000-row file does not hold it in memory. */
function writeCsv(file: string, row: (i: number) => string) {
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, 'id,target\n');
  for (let i = 0; i < ROWS; i += 10_000) {
    let slice = '';
    for (let k = i; k < Math.min(ROWS, i + 10_000); k++) slice += `${row(k)}\n`;
    fs.writeSync(fd, slice);
  }
  fs.closeSync(fd);
}

/** The reference: read the file and split it into lines and comma-separated fields, nothing else. */
async function plainLoop(file: string): Promise<number> {
  let rest = '';
  let fields = 0;
  for await (const chunk of fs.createReadStream(file, { encoding: 'utf8' })) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop()!;
    for (const line of lines) fields += line.split(',').length;
  }
  return fields + (rest ? rest.split(',').length : 0);
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return (performance.now() - t) / 1000;
}

async function run(dir: string, metric: 'rmse' | 'auc'): Promise<ScoringRun> {
  const answersFile = path.join(dir, `${metric}-answers.csv`);
  const predictionFile = path.join(dir, `${metric}-prediction.csv`);
  // Pseudo-random but reproducible values; AUC needs 0/1 truth and probabilities.
  const value = (i: number, salt: number) => ((Math.imul(i + 1, 2654435761 + salt) >>> 0) % 100_000) / 100_000;
  writeCsv(answersFile, (i) => `r${i},${metric === 'auc' ? (value(i, 1) < 0.3 ? 1 : 0) : (value(i, 1) * 100).toFixed(3)}`);
  writeCsv(predictionFile, (i) => `r${i},${metric === 'auc' ? value(i, 2).toFixed(5) : (value(i, 2) * 100).toFixed(3)}`);
  const ev: Evaluation = { metric, idColumn: 'id', targetColumn: 'target', publicShare: 0.3, salt: 'bench' };

  let t = performance.now();
  const answers = await loadAnswers(fs.createReadStream(answersFile), ev);
  const answersSeconds = (performance.now() - t) / 1000;

  // Alternate the two, five times each, and take medians: the machine is shared and noisy.
  const plain: number[] = [];
  const platform: number[] = [];
  const bare: number[] = [];
  let fingerprinted = false;
  let score: number | null = null;
  let rowsScored = 0;
  let heapGrowthBytes = 0;
  let rssGrowthBytes = 0;
  for (let round = 0; round < 5; round++) {
    gc();
    plain.push(await timeIt(() => plainLoop(predictionFile)));
    gc();
    const heap0 = process.memoryUsage().heapUsed;
    const rss0 = process.memoryUsage.rss();
    let heapPeak = heap0;
    let rssPeak = rss0;
    const sampler = setInterval(() => {
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    }, 20);
    t = performance.now();
    const result = await scoreSubmission(fs.createReadStream(predictionFile), answers, ev);
    platform.push((performance.now() - t) / 1000);
    clearInterval(sampler);
    score = result.publicScore;
    rowsScored = result.rows;
    fingerprinted = typeof result.fingerprint === 'string';
    gc();
    bare.push(await timeIt(() => scoreSubmission(fs.createReadStream(predictionFile), answers, ev, { fingerprint: false })));
    heapGrowthBytes = Math.max(heapGrowthBytes, heapPeak - heap0);
    rssGrowthBytes = Math.max(rssGrowthBytes, rssPeak - rss0);
  }
  const platformSeconds = median(platform);
  const plainSeconds = median(plain);
  const withoutFingerprintSeconds = median(bare);
  return {
    platformSeconds,
    plainSeconds,
    ratio: platformSeconds / plainSeconds,
    heapGrowthBytes,
    rssGrowthBytes,
    answersSeconds,
    fileBytes: fs.statSync(predictionFile).size,
    score,
    rowsScored,
    withoutFingerprintSeconds,
    fingerprintOverhead: platformSeconds / withoutFingerprintSeconds - 1,
    fingerprinted,
  };
}

/** Runs the scoring benchmark in a process of its own, so that its memory figures are the scoring's alone. */
export function scoringBenchmark(): ScoringResult {
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', import.meta.filename], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out) as ScoringResult;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contest-bench-scoring-'));
  try {
    const result: ScoringResult = { rows: ROWS, rmse: await run(dir, 'rmse'), auc: await run(dir, 'auc') };
    process.stdout.write(JSON.stringify(result));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
