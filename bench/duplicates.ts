import { execFileSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { decodeFingerprint, duplicatePairs } from '../server/src/scoring/fingerprint.ts';
import { loadAnswers, scoreSubmission, type Evaluation } from '../server/src/scoring/score.ts';
import { rng } from '../server/test/papers.ts';

/**
 * Duplicate accounts (issue 37, item 6): 2,000 honest teams of a classification question (5,000 rows, 70% private),
 * each wrong more often on hard rows, as real models are; 20 more teams each copy an honest team's file with at most
 * 1% of rows changed. Every file is scored by the platform's scoring pass, which leaves its fingerprint; then the
 * question's pairs are found. All 20 planted pairs must be found, and at most 0.1% of the honest teams flagged.
 */
export const TEAMS = 2000;
export const PLANTED = 20;
const ROWS = 5000;

export interface DuplicatesResult {
  teams: number;
  planted: number;
  rows: number;
  found: number;
  /** Honest teams named in a pair that is not a planted one. */
  honestFlagged: number;
  /** Seconds to find the pairs among every file's fingerprint (scoring not included). */
  searchSeconds: number;
  /** Files fingerprinted by scoring (every file, or the figure is not the one it names). */
  fingerprinted: number;
}

async function run(): Promise<DuplicatesResult> {
  const random = rng(2026);
  const truth = Array.from({ length: ROWS }, (): number => (random() < 0.5 ? 1 : 0));
  const hardness = Array.from({ length: ROWS }, () => random() ** 3);
  const ev: Evaluation = { metric: 'accuracy', idColumn: 'id', targetColumn: 'y', publicShare: 0.3, salt: 'bench-duplicates' };
  const csv = (values: number[]) => Buffer.from(['id,y', ...values.map((v, i) => `r${i},${v}`)].join('\n'));
  const answers = await loadAnswers(Readable.from([csv(truth)]), ev);
  // Each team's skill differs (4% to 14% of easy rows wrong), and every team finds the hard rows hard.
  const files: number[][] = Array.from({ length: TEAMS }, () => {
    const skill = 0.04 + random() * 0.1;
    return truth.map((t, i) => (random() < skill + 0.5 * hardness[i]! ? 1 - t : t));
  });
  const planted = new Set<string>();
  for (let p = 0; p < PLANTED; p++) {
    const source = Math.floor(random() * TEAMS);
    const changed = random() * 0.01;
    files.push(files[source]!.map((v) => (random() < changed ? 1 - v : v)));
    planted.add(`${source}-${files.length - 1}`);
  }
  let fingerprinted = 0;
  const prints = [];
  for (const [i, f] of files.entries()) {
    const r = await scoreSubmission(Readable.from([csv(f)]), answers, ev);
    const fp = r.fingerprint ? decodeFingerprint(r.fingerprint) : null;
    if (fp) {
      fingerprinted++;
      prints.push({ teamId: i, fingerprint: fp });
    }
  }
  const t0 = performance.now();
  const pairs = duplicatePairs(prints);
  const searchSeconds = (performance.now() - t0) / 1000;
  const keys = pairs.map((p) => [p.a.teamId, p.b.teamId].sort((x, y) => x - y).join('-'));
  const found = keys.filter((k) => planted.has(k)).length;
  const plantedTeams = new Set([...planted].flatMap((k) => k.split('-').map(Number)));
  const honest = new Set(
    pairs
      .filter((_, i) => !planted.has(keys[i]!))
      .flatMap((p) => [p.a.teamId, p.b.teamId])
      .filter((team) => team < TEAMS && !plantedTeams.has(team)),
  );
  return { teams: TEAMS, planted: PLANTED, rows: ROWS, found, honestFlagged: honest.size, searchSeconds, fingerprinted };
}

export function duplicatesBenchmark(): DuplicatesResult {
  const out = execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out) as DuplicatesResult;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.stdout.write(JSON.stringify(await run()));
