import fs from 'node:fs';
import path from 'node:path';
import { CsvError, readCsv, type CsvInput, type CsvProblem, type CsvRecord } from './csv.ts';
import { runSandboxed, type SandboxLimits, type SandboxRun, type ScorerRunner } from './sandbox.ts';
import { splitter, type SplitSetting } from './split.ts';

/**
 * An organiser's own scoring program (issue 23, item 2): the platform checks the prediction file as for built-in
 * metrics (it parses, it has the id column, every answer id appears exactly once and no other), then runs
 * `python3 score.py answer.csv prediction.csv` once per board, each run seeing only that board's rows of both files, in
 * a sandbox (sandbox.ts), and reads the score from the last line of standard output: `{"score": <finite number>}`.
 */

export type BoardName = 'public' | 'private';

/** What one board's run gets: its rows of the answer and of the prediction, as CSV files with the original headers. */
export interface BoardFiles {
  answer: string;
  prediction: string;
  rows: number;
}

/** CSV text of one record: fields quoted when they hold a comma, a quote or a line break (RFC 4180). */
const csvLine = (fields: string[]) => `${fields.map((f) => (/[",\r\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(',')}\n`;

/** Problems listed at most, like the built-in metrics' reader. */
const MAX_PROBLEMS = 20;

/**
 * Splits the answer and the prediction into a folder per board under `dir` (`public/`, `private/`), each with
 * `answer.csv` and `prediction.csv` holding the header and that board's rows, in the files' own order. Throws a
 * CsvError, with line numbers and never an answer value, when the prediction cannot be scored.
 */
export async function splitBoards(answer: CsvInput, prediction: CsvInput, idColumn: string, setting: SplitSetting, dir: string): Promise<Record<BoardName, BoardFiles>> {
  const isPublic = splitter(setting);
  const files = (board: BoardName): BoardFiles => {
    fs.mkdirSync(path.join(dir, board), { recursive: true, mode: 0o711 });
    return { answer: path.join(dir, board, 'answer.csv'), prediction: path.join(dir, board, 'prediction.csv'), rows: 0 };
  };
  const boards: Record<BoardName, BoardFiles> = { public: files('public'), private: files('private') };
  // Each answer id and its board (1 public, 0 private); 2 once the prediction has given it.
  const ids = await readCsv(
    answer,
    async (batches) => {
      const seen = new Map<string, number>();
      const out = { public: fs.createWriteStream(boards.public.answer), private: fs.createWriteStream(boards.private.answer) };
      try {
        let column = -1;
        for await (const batch of batches) {
          let records: CsvRecord[] = batch;
          if (column < 0) {
            const header = batch[0]!.fields.map((f) => f.trim());
            column = header.indexOf(idColumn);
            if (column < 0) throw new CsvError([{ line: batch[0]!.line, message: `答案文件表头缺少“${idColumn}”列` }]);
            out.public.write(csvLine(batch[0]!.fields));
            out.private.write(csvLine(batch[0]!.fields));
            records = batch.slice(1);
          }
          const flags = isPublic(records.map((r) => (r.fields[column] ?? '').trim()));
          records.forEach((r, i) => {
            const id = (r.fields[column] ?? '').trim();
            if (seen.has(id)) throw new CsvError([{ line: r.line, message: `答案文件中编号“${id}”重复` }]);
            seen.set(id, flags[i]!);
            out[flags[i] ? 'public' : 'private'].write(csvLine(r.fields));
          });
        }
        return seen;
      } finally {
        await Promise.all([close(out.public), close(out.private)]);
      }
    },
    { same: (a, b) => a.size === b.size },
  );
  for (const id of ids.values()) boards[id ? 'public' : 'private'].rows++;

  await readCsv(
    prediction,
    async (batches) => {
      const given = new Set<string>();
      const problems: CsvProblem[] = [];
      const problem = (p: CsvProblem) => {
        if (problems.length < MAX_PROBLEMS) problems.push(p);
      };
      const out = { public: fs.createWriteStream(boards.public.prediction), private: fs.createWriteStream(boards.private.prediction) };
      try {
        let column = -1;
        let header = false;
        for await (const batch of batches) {
          for (const r of batch) {
            if (!header) {
              header = true;
              column = r.fields.map((f) => f.trim()).indexOf(idColumn);
              if (column < 0) throw new CsvError([{ line: r.line, message: `表头须包含“${idColumn}”列，当前表头为：${r.fields.join(',').slice(0, 80)}` }]);
              out.public.write(csvLine(r.fields));
              out.private.write(csvLine(r.fields));
              continue;
            }
            const id = (r.fields[column] ?? '').trim();
            const board = ids.get(id);
            if (board === undefined) problem({ line: r.line, message: `编号“${id.slice(0, 40)}”不在测试集中` });
            else if (given.has(id)) problem({ line: r.line, message: `编号“${id.slice(0, 40)}”重复出现` });
            else {
              given.add(id);
              out[board ? 'public' : 'private'].write(csvLine(r.fields));
            }
          }
        }
        if (!header) throw new CsvError([{ line: 0, message: '文件为空' }]);
        const missing = ids.size - given.size;
        if (missing > 0 && problems.length < MAX_PROBLEMS) problems.push({ line: 0, message: `缺少${missing}个测试集编号的预测` });
        if (problems.length) throw new CsvError(problems);
      } finally {
        await Promise.all([close(out.public), close(out.private)]);
      }
    },
    { same: () => true },
  );
  return boards;
}

const close = (stream: fs.WriteStream) => new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(err) : resolve())));

/** The score a run printed: the last non-empty line of its standard output as `{"score": <finite number>}`, or why not. */
export function readScore(run: SandboxRun): { score: number } | { failure: string } {
  if (run.timedOut) return { failure: '评分程序超过时间限制，已被终止' };
  if (run.outputCapped) return { failure: '评分程序输出过多，已被终止' };
  if (run.exitCode !== 0) return { failure: run.exitCode === null ? '评分程序被终止（可能超出内存限制）' : `评分程序异常退出（退出码${run.exitCode}）` };
  const last = run.stdout.split('\n').map((l) => l.trim()).filter(Boolean).at(-1);
  if (!last) return { failure: '评分程序没有输出得分' };
  let value: unknown;
  try {
    value = JSON.parse(last);
  } catch {
    return { failure: '评分程序最后一行输出不是 {"score": 数字} 格式的JSON' };
  }
  const score = (value as { score?: unknown } | null)?.score;
  if (typeof value !== 'object' || value === null || typeof score !== 'number') return { failure: '评分程序最后一行输出不是 {"score": 数字} 格式的JSON' };
  if (!Number.isFinite(score)) return { failure: '评分程序输出的得分不是有限的数字' };
  return { score };
}

export interface ProgramOutcome {
  publicScore: number | null;
  privateScore: number | null;
}
/** A run that failed: what the team is told (nothing of the answers) and what the organiser sees (standard error). */
export class ProgramFailure extends Error {
  constructor(
    message: string,
    readonly board: BoardName,
    readonly stderr: string,
  ) {
    super(message);
  }
}

/**
 * Runs the program (`program`: its files, `score.py` among them at the top) on each board that has rows, and answers
 * both scores; throws ProgramFailure at the first run that fails.
 */
export async function runProgram(
  program: { name: string; hostPath: string }[],
  boards: Record<BoardName, BoardFiles>,
  limits: SandboxLimits,
  options: { runner?: ScorerRunner; image?: string } = {},
): Promise<ProgramOutcome> {
  const scores: ProgramOutcome = { publicScore: null, privateScore: null };
  for (const board of ['public', 'private'] as const) {
    const files = boards[board];
    if (!files.rows) continue;
    const run = await runSandboxed(
      [...program, { name: 'answer.csv', hostPath: files.answer }, { name: 'prediction.csv', hostPath: files.prediction }],
      ['python3', 'score.py', 'answer.csv', 'prediction.csv'].map((a, i) => (i === 0 && (options.runner ?? 'bwrap') === 'bwrap' ? '/usr/bin/python3' : a)),
      limits,
      options,
    );
    const read = readScore(run);
    if ('failure' in read) throw new ProgramFailure(read.failure, board, run.stderr);
    scores[board === 'public' ? 'publicScore' : 'privateScore'] = read.score;
  }
  return scores;
}
