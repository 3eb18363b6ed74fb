import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { FingerprintIndex, compare, fingerprint, normalise, without } from '../server/src/similarity/winnow.ts';
import { makeVocabulary, paper, plantCopy, rng } from '../server/test/papers.ts';

/**
 * 查重 at a question's scale (issue 37, item 6): 2,000 generated Chinese papers of about 15,000 characters sharing a
 * template and problem statement, 50 planted pairs (30% of paragraphs copied, reordered, lightly reworded). The engine
 * (normalise, fingerprint, index, candidates, compare) is timed against a baseline pass that only normalises the same
 * texts; recall and precision are measured at the default threshold, and the largest share between honest papers
 * (which share only the template and statement) is reported. Run in a process of its own for its memory figure.
 */
export const PAPERS = 2000;
export const PLANTED = 50;
export const CHARS = 15_000;
/** The default flag threshold of a question (share of a work's text in passages found in another). */
export const FLAG_SHARE = 0.2;

export interface SimilarityResult {
  papers: number;
  planted: number;
  chars: number;
  /** Seconds for the whole question: fingerprints, index, candidates and comparisons. */
  engineSeconds: number;
  /** Seconds for the baseline: normalising the same texts, nothing else. */
  baselineSeconds: number;
  ratio: number;
  candidatePairs: number;
  recall: number;
  precision: number;
  /** The largest share between two honest papers. */
  honestMaxShare: number;
  /** Resident memory growth while the engine ran, over the texts held. */
  rssGrowthBytes: number;
}

function run(): SimilarityResult {
  const random = rng(37);
  const vocab = makeVocabulary(random);
  const shared = `${paper(random, vocab, 1500).join('\n')}\n${paper(random, vocab, 1000).join('\n')}`;
  const texts = Array.from({ length: PAPERS }, () => paper(random, vocab, CHARS));
  const planted = new Set<string>();
  for (let i = 0; i < PLANTED; i++) {
    const [from, to] = [i * 2, i * 2 + 1];
    texts[to] = plantCopy(random, vocab, texts[from]!, texts[to]!, 0.3);
    planted.add(`${to}-${from}`);
    planted.add(`${from}-${to}`);
  }
  const full = texts.map((t) => `${shared}\n${t.join('\n')}`);

  let t0 = performance.now();
  let kept = 0;
  for (const t of full) kept += normalise(t).text.length;
  const baselineSeconds = (performance.now() - t0) / 1000;

  const rssBefore = process.memoryUsage().rss;
  t0 = performance.now();
  const excluded = new Set(fingerprint(normalise(shared).text).hashes);
  const index = new FingerprintIndex();
  for (const t of full) index.add(without(fingerprint(normalise(t).text), excluded));
  let candidatePairs = 0;
  let honestMaxShare = 0;
  const flagged = new Set<string>();
  for (let id = 0; id < index.size; id++) {
    for (const c of index.candidates(id)) {
      candidatePairs++;
      const m = compare(index.doc(id), index.doc(c.id));
      if (m.shareA >= FLAG_SHARE) flagged.add(`${id}-${c.id}`);
      if (!planted.has(`${id}-${c.id}`)) honestMaxShare = Math.max(honestMaxShare, m.shareA);
    }
  }
  const engineSeconds = (performance.now() - t0) / 1000;
  const rssGrowthBytes = process.memoryUsage().rss - rssBefore;
  const found = [...planted].filter((p) => flagged.has(p)).length;
  if (kept === 0) throw new Error('nothing normalised');
  return {
    papers: PAPERS,
    planted: PLANTED,
    chars: CHARS,
    engineSeconds,
    baselineSeconds,
    ratio: engineSeconds / baselineSeconds,
    candidatePairs,
    recall: found / planted.size,
    precision: flagged.size ? [...flagged].filter((p) => planted.has(p)).length / flagged.size : 1,
    honestMaxShare,
    rssGrowthBytes,
  };
}

export function similarityBenchmark(): SimilarityResult {
  const out = execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out) as SimilarityResult;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.stdout.write(JSON.stringify(run()));
