import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { prepareAnswers, readPrepared } from '../server/src/scoring/prepared.ts';
import { loadAnswers, scoreSubmission, type Answers, type Evaluation } from '../server/src/scoring/score.ts';
import type { FileStore } from '../server/src/storage/file-store.ts';

/**
 * Large answer files (issue 21): ten million rows, each figure measured in a fresh process of its own so that "cold"
 * is cold and peak memory is the figure's alone.
 * - the cold load: what a scoring job does when it does not hold a question's answers, reading back the form stored
 *   at upload (scoring/prepared.ts), against a plain loop that reads the CSV and splits it into lines and fields;
 * - the load from the CSV, done once when the organiser uploads the file (read, check, index, split, store);
 * - scoring a ten-million-row prediction with a streaming metric (RMSE) and with one that keeps a number per row (AUC),
 *   answers already held, against the plain loop over the prediction file.
 */
export const LARGE_ROWS = Number(process.env.BENCH_LARGE_ROWS ?? 10_000_000);

export interface Timed {
  seconds: number;
  /** The rows the work covered (loaded or scored): the file's, or the figure is not the one it names. */
  rows: number;
  /** Peak resident memory of the process, and what it was just before the measured work (imports done). */
  peakRssBytes: number;
  baseRssBytes: number;
}

export interface LargeScoring extends Timed {
  metric: 'rmse' | 'auc';
  plainSeconds: number;
  fileBytes: number;
}

export interface LargeResult {
  rows: number;
  answerFileBytes: number;
  storedBytes: number;
  /** Read and split the answer CSV (median of three processes). */
  plainSeconds: number;
  /** The cold load from the stored form (median of three processes). */
  coldLoad: Timed;
  /** The load from the CSV at upload. */
  csvLoad: Timed;
  scoring: LargeScoring[];
}

const evaluation = (metric: 'rmse' | 'auc'): Evaluation => ({ metric, idColumn: 'id', targetColumn: 'target', publicShare: 0.3, salt: 'bench-large' });
const value = (i: number, salt: number) => ((Math.imul(i + 1, 2654435761 + salt) >>> 0) % 100_000) / 100_000;

function writeCsv(file: string, rows: number, row: (i: number) => string) {
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, 'id,target\n');
  for (let i = 0; i < rows; i += 50_000) {
    let slice = '';
    for (let k = i; k < Math.min(rows, i + 50_000); k++) slice += `${row(k)}\n`;
    fs.writeSync(fd, slice);
  }
  fs.closeSync(fd);
}

/** A file store over one folder, as the local store reads (the stored form is read through the FileStore interface). */
const folderStore = (dir: string): FileStore => ({
  put: () => Promise.reject(new Error('read only')),
  get: async (key) => fs.createReadStream(path.join(dir, key)),
  size: async (key) => fs.statSync(path.join(dir, key), { throwIfNoEntry: false })?.size ?? null,
  delete: async () => {},
});

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

const maxRss = () => process.resourceUsage().maxRSS * 1024;

/** One measurement, in this (child) process; prints its JSON. */
async function child(mode: string, args: string[]) {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const baseRssBytes = process.memoryUsage.rss();
  const t = performance.now();
  const seconds = () => (performance.now() - t) / 1000;
  let out: Record<string, unknown>;
  if (mode === 'plain') {
    await plainLoop(args[0]!);
    out = { seconds: seconds(), rows: 0 };
  } else if (mode === 'csv-load') {
    const [file, metric, stored] = args as [string, 'rmse' | 'auc', string];
    const answers = await loadAnswers(fs.createReadStream(file), evaluation(metric));
    const s = seconds();
    const fd = fs.openSync(stored, 'w');
    for (const part of prepareAnswers(answers)) fs.writeSync(fd, part);
    fs.closeSync(fd);
    out = { seconds: s, rows: answers.index.size };
  } else if (mode === 'cold') {
    const answers = await readPrepared(folderStore(path.dirname(args[0]!)), path.basename(args[0]!));
    if (!answers) throw new Error('stored answers unreadable');
    out = { seconds: seconds(), rows: answers.index.size };
  } else {
    const [stored, prediction, metric] = args as [string, string, 'rmse' | 'auc'];
    const answers = (await readPrepared(folderStore(path.dirname(stored)), path.basename(stored))) as Answers;
    gc?.();
    const base = process.memoryUsage.rss();
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
    const s = performance.now();
    const result = await scoreSubmission(fs.createReadStream(prediction), answers, evaluation(metric));
    clearInterval(sampler);
    out = {
      seconds: (performance.now() - s) / 1000,
      peakRssBytes: Math.max(peak, process.memoryUsage.rss()),
      baseRssBytes: base,
      score: result.publicScore,
      rows: result.rows,
    };
  }
  process.stdout.write(JSON.stringify({ peakRssBytes: maxRss(), baseRssBytes, ...out }));
}

function run(mode: string, ...args: string[]): Timed & Record<string, unknown> {
  const out = execFileSync(process.execPath, ['--expose-gc', '--max-old-space-size=4096', '--import', 'tsx', import.meta.filename, mode, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out) as Timed & Record<string, unknown>;
}

const median = <T>(xs: T[], by: (x: T) => number) => [...xs].sort((a, b) => by(a) - by(b))[Math.floor(xs.length / 2)]!;

export function largeAnswersBenchmark(log: (text: string) => void): LargeResult {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contest-bench-answers-'));
  try {
    const file = (name: string) => path.join(dir, name);
    log(`large answers: writing ${LARGE_ROWS} rows`);
    writeCsv(file('rmse-answers.csv'), LARGE_ROWS, (i) => `r${i},${(value(i, 1) * 100).toFixed(3)}`);
    writeCsv(file('rmse-prediction.csv'), LARGE_ROWS, (i) => `r${i},${(value(i, 2) * 100).toFixed(3)}`);
    writeCsv(file('auc-answers.csv'), LARGE_ROWS, (i) => `r${i},${value(i, 1) < 0.3 ? 1 : 0}`);
    writeCsv(file('auc-prediction.csv'), LARGE_ROWS, (i) => `r${i},${value(i, 2).toFixed(5)}`);
    log('large answers: load from the CSV (upload)');
    const csvLoad = run('csv-load', file('rmse-answers.csv'), 'rmse', file('rmse.idx'));
    run('csv-load', file('auc-answers.csv'), 'auc', file('auc.idx'));
    log('large answers: cold loads and read+split');
    const plain: number[] = [];
    const cold: Timed[] = [];
    for (let round = 0; round < 3; round++) {
      plain.push(run('plain', file('rmse-answers.csv')).seconds);
      cold.push(run('cold', file('rmse.idx')));
    }
    const scoring: LargeScoring[] = [];
    for (const metric of ['rmse', 'auc'] as const) {
      log(`large answers: scoring a ${LARGE_ROWS}-row prediction (${metric})`);
      const prediction = file(`${metric}-prediction.csv`);
      const scored = run('score', file(`${metric}.idx`), prediction, metric);
      scoring.push({
        metric,
        seconds: scored.seconds,
        rows: scored.rows,
        peakRssBytes: scored.peakRssBytes,
        baseRssBytes: scored.baseRssBytes,
        plainSeconds: run('plain', prediction).seconds,
        fileBytes: fs.statSync(prediction).size,
      });
    }
    return {
      rows: LARGE_ROWS,
      answerFileBytes: fs.statSync(file('rmse-answers.csv')).size,
      storedBytes: fs.statSync(file('rmse.idx')).size,
      plainSeconds: median(plain, (x) => x),
      coldLoad: median(cold, (x) => x.seconds),
      csvLoad: { seconds: csvLoad.seconds, rows: csvLoad.rows, peakRssBytes: csvLoad.peakRssBytes, baseRssBytes: csvLoad.baseRssBytes },
      scoring,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [mode, ...args] = process.argv.slice(2);
  if (mode) await child(mode, args);
  else
    process.stdout.write(
      `${JSON.stringify(
        largeAnswersBenchmark((t) => process.stderr.write(`${t}\n`)),
        null,
        2,
      )}\n`,
    );
}
