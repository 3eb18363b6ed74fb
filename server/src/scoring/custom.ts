import fs from 'node:fs';
import path from 'node:path';
import { CsvError, readCsv, type CsvInput, type CsvProblem, type CsvRecord } from './csv.ts';
import { writeProgram, type ProgramFiles } from './program.ts';
import { runFolder, runSandboxed, type SandboxLimits, type SandboxRun, type ScorerRunner } from './sandbox.ts';
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
export async function splitBoards(
  answer: CsvInput,
  prediction: CsvInput,
  idColumn: string,
  setting: SplitSetting,
  dir: string,
): Promise<Record<BoardName, BoardFiles>> {
  const isPublic = splitter(setting);
  for (const board of ['public', 'private']) fs.mkdirSync(path.join(dir, board), { recursive: true, mode: 0o711 });
  // Reachable by the unprivileged user programs run as, whatever the process's umask.
  for (const folder of [dir, path.join(dir, 'public'), path.join(dir, 'private')]) fs.chmodSync(folder, 0o711);
  // A file valid in two encodings is read twice (csv.ts readCsv), and either reading may be the one kept: each reading
  // writes files of its own, and the one kept names its files, so the program reads exactly what was checked.
  let reading = 0;
  const outputs = (name: 'answer' | 'prediction') => {
    const n = ++reading;
    const file = (board: BoardName) => path.join(dir, board, `${name}.${n}.csv`);
    const paths = { public: file('public'), private: file('private') };
    return { paths, out: { public: fs.createWriteStream(paths.public), private: fs.createWriteStream(paths.private) } };
  };
  // Each answer id and its board (1 public, 0 private).
  const answers = await readCsv(
    answer,
    async (batches) => {
      const seen = new Map<string, number>();
      const { paths, out } = outputs('answer');
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
        return { seen, paths };
      } finally {
        await Promise.all([close(out.public), close(out.private)]);
      }
    },
    { same: (a, b) => a.seen.size === b.seen.size },
  );
  const ids = answers.seen;
  const boards: Record<BoardName, BoardFiles> = {
    public: { answer: answers.paths.public, prediction: '', rows: 0 },
    private: { answer: answers.paths.private, prediction: '', rows: 0 },
  };
  for (const id of ids.values()) boards[id ? 'public' : 'private'].rows++;

  const predicted = await readCsv(
    prediction,
    async (batches) => {
      const given = new Set<string>();
      const problems: CsvProblem[] = [];
      const problem = (p: CsvProblem) => {
        if (problems.length < MAX_PROBLEMS) problems.push(p);
      };
      const { paths, out } = outputs('prediction');
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
        return paths;
      } finally {
        await Promise.all([close(out.public), close(out.private)]);
      }
    },
    // Every id known in both readings: which reading wins changes no id, only values the program reads as it will.
    { same: () => true },
  );
  boards.public.prediction = predicted.public;
  boards.private.prediction = predicted.private;
  return boards;
}

/**
 * Checks an answer file for an own program at upload: it parses, has the id column, and no id twice. Answers its rows.
 * What else it holds is the program's to read.
 */
export async function checkAnswerIds(answer: CsvInput, idColumn: string): Promise<number> {
  return readCsv(
    answer,
    async (batches) => {
      const seen = new Set<string>();
      let column = -1;
      for await (const batch of batches) {
        let records: CsvRecord[] = batch;
        if (column < 0) {
          column = batch[0]!.fields.map((f) => f.trim()).indexOf(idColumn);
          if (column < 0) throw new CsvError([{ line: batch[0]!.line, message: `答案文件表头缺少“${idColumn}”列` }]);
          records = batch.slice(1);
        }
        for (const r of records) {
          const id = (r.fields[column] ?? '').trim();
          if (seen.has(id)) throw new CsvError([{ line: r.line, message: `答案文件中编号“${id.slice(0, 40)}”重复` }]);
          seen.add(id);
        }
      }
      if (column < 0) throw new CsvError([{ line: 0, message: '文件为空' }]);
      if (!seen.size) throw new CsvError([{ line: 0, message: '答案文件只有表头，没有数据' }]);
      return seen.size;
    },
    { same: (a, b) => a === b },
  );
}

const close = (stream: fs.WriteStream) => new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(err) : resolve())));

/** The longest explanation a program may give a team for refusing its file. */
export const REFUSAL_MAX_CHARS = 300;

/** The last line's JSON, if it is one. */
function lastJson(stdout: string): { line: string | undefined; value: unknown } {
  const line = stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .at(-1);
  if (!line) return { line, value: undefined };
  try {
    return { line, value: JSON.parse(line) };
  } catch {
    return { line, value: undefined };
  }
}

/**
 * The score a run printed: the last non-empty line of its standard output as `{"score": <finite number>}`, or why not.
 * A program may refuse a file instead, with `{"error": "<what the team should fix>"}` (whatever its exit code): that
 * explanation is for the team, on one line, cut at REFUSAL_MAX_CHARS.
 */
export function readScore(run: SandboxRun): { score: number } | { failure: string; refusal?: true } {
  if (run.timedOut) return { failure: '评分程序超过时间限制，已被终止' };
  if (run.outputCapped) return { failure: '评分程序输出过多，已被终止' };
  if (run.memoryExceeded && run.exitCode !== 0) return { failure: '评分程序的进程合计超出内存限制，已被终止' };
  const { line: last, value } = lastJson(run.stdout);
  const said = (value as { error?: unknown } | null)?.error;
  if (typeof value === 'object' && value !== null && typeof said === 'string') {
    // eslint-disable-next-line no-control-regex
    const explanation = said
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .trim()
      .slice(0, REFUSAL_MAX_CHARS);
    if (explanation) return { failure: explanation, refusal: true };
  }
  if (run.exitCode !== 0) return { failure: run.exitCode === null ? '评分程序被终止（可能超出内存限制）' : `评分程序异常退出（退出码${run.exitCode}）` };
  if (!last) return { failure: '评分程序没有输出得分' };
  if (value === undefined) return { failure: '评分程序最后一行输出不是 {"score": 数字} 格式的JSON' };
  const score = (value as { score?: unknown } | null)?.score;
  if (typeof value !== 'object' || value === null || typeof score !== 'number') return { failure: '评分程序最后一行输出不是 {"score": 数字} 格式的JSON' };
  if (!Number.isFinite(score)) return { failure: '评分程序输出的得分不是有限的数字' };
  return { score };
}

export interface ProgramOutcome {
  publicScore: number | null;
  privateScore: number | null;
  /** The end of the last run's standard error (shown to the organiser who tries the program). */
  stderr: string;
  /** Seconds the runs took together. */
  seconds: number;
  /** Answer rows scored, both boards together. */
  rows: number;
}
/**
 * A scoring that failed: what the team is told and what the organiser sees (standard error of the board that failed
 * first, and which board that was). A refusal is the program's own explanation of what is wrong with the file; any
 * other failure names only how the program failed (nothing of the answers). Every board was run all the same (issue
 * 32): `runs` is how many, so that the caller can release the outcome at a time that does not depend on the rows.
 */
export class ProgramFailure extends Error {
  constructor(
    message: string,
    readonly board: BoardName,
    readonly stderr: string,
    readonly refusal = false,
    readonly runs = 1,
    /** What the runs gave all the same: the other board's score when it succeeded, and their seconds (for the try). */
    readonly partial: Pick<ProgramOutcome, 'publicScore' | 'privateScore' | 'seconds'> = { publicScore: null, privateScore: null, seconds: 0 },
  ) {
    super(message);
  }
}

/**
 * Runs the program (`program`: its files, `score.py` among them at the top) on each board that has rows, and answers
 * both scores. Every board runs even when one has failed, so that neither the time a failure takes nor which board it
 * came from tells a team which rows are public; then the first failure (the public board's before the private's) is
 * thrown as a ProgramFailure.
 */
export async function runProgram(
  program: { name: string; hostPath: string }[],
  boards: Record<BoardName, BoardFiles>,
  limits: SandboxLimits,
  options: { runner?: ScorerRunner; image?: string; hidden?: string[] } = {},
): Promise<ProgramOutcome> {
  const scores: ProgramOutcome = { publicScore: null, privateScore: null, stderr: '', seconds: 0, rows: boards.public.rows + boards.private.rows };
  let failure: { board: BoardName; run: SandboxRun; read: { failure: string; refusal?: true } } | null = null;
  let runs = 0;
  for (const board of ['public', 'private'] as const) {
    const files = boards[board];
    if (!files.rows) continue;
    runs++;
    const run = await runSandboxed(
      [...program, { name: 'answer.csv', hostPath: files.answer }, { name: 'prediction.csv', hostPath: files.prediction }],
      ['python3', 'score.py', 'answer.csv', 'prediction.csv'].map((a, i) => (i === 0 && (options.runner ?? 'bwrap') === 'bwrap' ? '/usr/bin/python3' : a)),
      limits,
      options,
    );
    scores.seconds += run.seconds;
    scores.stderr = run.stderr;
    const read = readScore(run);
    if ('failure' in read) failure ??= { board, run, read };
    else scores[board === 'public' ? 'publicScore' : 'privateScore'] = read.score;
  }
  if (failure) throw new ProgramFailure(failure.read.failure, failure.board, failure.run.stderr, failure.read.refusal === true, runs, scores);
  return scores;
}

/** Where and how a program runs: the sandbox's runner and image, its memory, and the host folder for runs' files. */
export interface ProgramSetting {
  runner: ScorerRunner;
  image: string;
  memoryBytes: number;
  workDir: string;
  /** Host folders a program must not see though they lie inside the system folders it is shown. */
  hidden?: string[];
}

/**
 * The whole of scoring a prediction with an own program, in a folder of its own removed at the end: the prediction is
 * checked and both files split by board (a CsvError for the team), the program written beside them, and run once per
 * board (a ProgramFailure for the organiser).
 */
export async function scoreWithProgram(
  input: { answer: CsvInput; prediction: CsvInput; program: ProgramFiles; idColumn: string; split: SplitSetting; timeLimitSec: number },
  setting: ProgramSetting,
): Promise<ProgramOutcome> {
  const run = runFolder(setting.workDir);
  try {
    const boards = await splitBoards(input.answer, input.prediction, input.idColumn, input.split, path.join(run.dir, 'boards'));
    const program = writeProgram(input.program, path.join(run.dir, 'program'));
    return await runProgram(
      program,
      boards,
      { timeLimitSec: input.timeLimitSec, memoryBytes: setting.memoryBytes },
      { runner: setting.runner, image: setting.image, hidden: setting.hidden },
    );
  } finally {
    run.done();
  }
}
