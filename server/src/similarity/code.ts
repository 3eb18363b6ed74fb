import type { CodeFile, CodeLanguage } from './extract.ts';

/**
 * Code of teams compared (issue 37, item 3) with Dolos (`@dodona/dolos-lib`): each file is parsed by tree-sitter into
 * its syntax tree's node types, so renamed identifiers, changed literals and reformatting do not hide a copy; the
 * token k-grams are winnowed and indexed as for text. A team's files of one language are compared as one submission;
 * the organiser's baseline code is Dolos's ignored file (what every team was given). Runs in the reading process
 * (extract-child.ts): tree-sitter is native code, and teams' files are theirs.
 */

/** A team's code of one language, as one text: its files in order, each under a line naming it. */
export function submissionText(files: CodeFile[], language: CodeLanguage): string {
  const comment = language === 'python' || language === 'r' ? '#' : '//';
  return files
    .filter((f) => f.language === language)
    .map((f) => `${comment} ==== ${f.path} ====\n${f.content.endsWith('\n') ? f.content : `${f.content}\n`}`)
    .join('\n');
}

export interface CodePair {
  a: number;
  b: number;
  /** Dolos's similarity of the pair (0–1), and the share of each side covered by shared fragments. */
  similarity: number;
  shareA: number;
  shareB: number;
  /** [start, end) offsets of the matched fragments in each submission's text. */
  a_ranges: [number, number][];
  b_ranges: [number, number][];
}

/** Offsets of each line's start, for Dolos's (row, column) regions. */
function lineStarts(text: string) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return starts;
}

/** Submissions of one language compared in one run at most (Dolos holds them all at once). */
export const compareCodeLimit = 5000;

const EXT: Record<CodeLanguage, string> = { python: 'py', r: 'r', java: 'java', c: 'c', cpp: 'cpp', javascript: 'js' };

/** Pairs of submissions whose similarity is at least `min`, with their fragments. */
export async function compareCode(
  language: CodeLanguage,
  submissions: { id: number; text: string }[],
  baseline: string | null,
  min = 0.05,
): Promise<CodePair[]> {
  if (submissions.length < 2) return [];
  const { Dolos, File } = await import('@dodona/dolos-lib');
  const files = submissions.map((s, i) => new File(`${s.id}.${EXT[language]}`, s.text, undefined, i));
  // A k-gram in more than 2% of the submissions (and more than 10) is everyone's idiom, not a copy (as for text).
  const dolos = new Dolos({ language, maxFingerprintCount: Math.max(10, Math.ceil(submissions.length * 0.02)) });
  const ignored = baseline?.trim() ? new File(`baseline.${EXT[language]}`, baseline) : undefined;
  const report = await dolos.analyze(files, 'similarity', ignored);
  const byPath = new Map(submissions.map((s) => [`${s.id}.${EXT[language]}`, s]));
  const starts = new Map(submissions.map((s) => [s.id, lineStarts(s.text)]));
  const out: CodePair[] = [];
  for (const pair of report.allPairs()) {
    if (pair.similarity < min) continue;
    const left = byPath.get(pair.leftFile.path)!;
    const right = byPath.get(pair.rightFile.path)!;
    const offsets = (id: number, r: { startRow: number; startCol: number; endRow: number; endCol: number }): [number, number] => {
      const s = starts.get(id)!;
      return [(s[r.startRow] ?? 0) + r.startCol, (s[r.endRow] ?? 0) + r.endCol];
    };
    const fragments = pair.buildFragments();
    out.push({
      a: left.id,
      b: right.id,
      similarity: pair.similarity,
      shareA: pair.leftTotal ? pair.leftCovered / pair.leftTotal : 0,
      shareB: pair.rightTotal ? pair.rightCovered / pair.rightTotal : 0,
      a_ranges: merge(fragments.map((f) => offsets(left.id, f.leftSelection))),
      b_ranges: merge(fragments.map((f) => offsets(right.id, f.rightSelection))),
    });
  }
  return out;
}

/** Sorted, overlapping ranges merged. */
function merge(ranges: [number, number][]): [number, number][] {
  const sorted = ranges.filter(([s, e]) => e > s).sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const r of sorted) {
    const last = out.at(-1);
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}
