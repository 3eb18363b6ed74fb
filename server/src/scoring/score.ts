import { hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { CsvError, csvBatches, type CsvProblem } from './csv.ts';
import { NUMERIC_PREDICTION, accumulator, type Accumulator, type Metric } from './metrics.ts';

export interface Evaluation {
  metric: Metric;
  idColumn: string;
  targetColumn: string;
  /** Share of the rows (0 to 1) that make the public score; the rest make the private one. */
  publicShare: number;
  /** Per-question secret that decides which rows are public, so nobody can tell from the ids. */
  salt: string;
}

/** The hidden answers, indexed for one pass over a submission. */
export interface Answers {
  index: Map<string, number>;
  ids: string[];
  truth: (string | number)[];
  isPublic: Uint8Array;
}

/** Submissions stop being read after this many problems: enough to fix a file, not a flood. */
const MAX_PROBLEMS = 20;
const show = (v: string) => (v.length > 40 ? `${v.slice(0, 40)}…` : v);

function headerIndexes(fields: string[], ev: Evaluation, line: number) {
  const names = fields.map((f) => f.trim());
  const id = names.indexOf(ev.idColumn);
  const target = names.indexOf(ev.targetColumn);
  if (id < 0 || target < 0) throw new CsvError([{ line, message: `表头须包含“${ev.idColumn}”和“${ev.targetColumn}”两列` }]);
  return { id, target, width: names.length };
}

/** Checks one value for the metric; returns the parsed value or a problem text. */
function parseValue(metric: Metric, raw: string, side: 'truth' | 'prediction'): string | number | { problem: string } {
  const v = raw.trim();
  if (!NUMERIC_PREDICTION[metric]) return v === '' ? { problem: '值为空' } : v;
  const n = Number(v);
  // Number() alone accepts what the pattern does, plus '' and 0x/0b/0o literals (and infinities, refused below), so
  // the pattern is needed only for values it would refuse anyway: a million rows are not run through a regex.
  if (v === '' || !Number.isFinite(n) || (v[0] === '0' && v.length > 1 && 'xXbBoO'.includes(v[1]!))) {
    if (v === '' || !/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(v)) return { problem: `不是数字：${show(v)}` };
    return { problem: `不是有限的数字：${show(v)}` };
  }
  if ((metric === 'auc' || metric === 'logLoss') && side === 'truth' && n !== 0 && n !== 1) return { problem: '真实值须为0或1' };
  if (metric === 'logLoss' && side === 'prediction' && (n < 0 || n > 1)) return { problem: `概率须在0到1之间：${show(v)}` };
  if (metric === 'mape' && side === 'truth' && n === 0) return { problem: '真实值为0，不能计算MAPE' };
  return n;
}

export function isPublicRow(id: string, ev: Pick<Evaluation, 'salt' | 'publicShare'>): boolean {
  // The one-shot hash: a Hash object per row made loading a million-row answer file mostly garbage collection.
  const h = hash('sha256', `${ev.salt}\0${id}`, 'buffer');
  return h.readUInt32BE(0) / 2 ** 32 < ev.publicShare;
}

/** Reads the organiser's answer file; its problems are reported to the organiser at upload, with line numbers. */
export async function loadAnswers(source: Readable, ev: Evaluation): Promise<Answers> {
  const answers: Answers = { index: new Map(), ids: [], truth: [], isPublic: new Uint8Array(0) };
  const publicFlags: number[] = [];
  const problems: CsvProblem[] = [];
  let cols: ReturnType<typeof headerIndexes> | undefined;
  read: for await (const batch of csvBatches(source)) {
    for (const { line, fields } of batch) {
      if (!cols) {
        cols = headerIndexes(fields, ev, line);
        continue;
      }
      const id = (fields[cols.id] ?? '').trim();
      const value = parseValue(ev.metric, fields[cols.target] ?? '', 'truth');
      if (fields.length !== cols.width) problems.push({ line, message: '列数与表头不一致' });
      else if (!id) problems.push({ line, message: '编号为空' });
      else if (answers.index.has(id)) problems.push({ line, message: `编号“${show(id)}”重复` });
      else if (typeof value === 'object') problems.push({ line, message: value.problem });
      else {
        answers.index.set(id, answers.ids.length);
        answers.ids.push(id);
        answers.truth.push(value);
        publicFlags.push(isPublicRow(id, ev) ? 1 : 0);
      }
      if (problems.length >= MAX_PROBLEMS) break read;
    }
  }
  if (!cols) throw new CsvError([{ line: 0, message: '文件为空' }]);
  if (problems.length) throw new CsvError(problems);
  if (!answers.ids.length) throw new CsvError([{ line: 0, message: '文件没有数据行' }]);
  answers.isPublic = Uint8Array.from(publicFlags);
  return answers;
}

export interface ScoreResult {
  publicScore: number | null;
  privateScore: number | null;
  rows: number;
}

/**
 * Scores a prediction file in one streaming pass: the header must name the id and target columns, every answer id must
 * appear exactly once and no other; problems come back with their line numbers and never show an answer value.
 */
export async function scoreSubmission(source: Readable, answers: Answers, ev: Evaluation): Promise<ScoreResult> {
  const seen = new Uint8Array(answers.ids.length);
  const pub = accumulator(ev.metric) as Accumulator<unknown, unknown>;
  const priv = accumulator(ev.metric) as Accumulator<unknown, unknown>;
  const problems: CsvProblem[] = [];
  let cols: ReturnType<typeof headerIndexes> | undefined;
  let rows = 0;
  // Prediction files usually keep the answer file's order: comparing with the id expected next is far cheaper than a
  // lookup in a million-entry map, which stays the fallback.
  let next = 0;
  read: for await (const batch of csvBatches(source)) {
    for (const { line, fields } of batch) {
      if (!cols) {
        cols = headerIndexes(fields, ev, line);
        continue;
      }
      rows++;
      const id = (fields[cols.id] ?? '').trim();
      const at = answers.ids[next] === id ? next : answers.index.get(id);
      if (at !== undefined) next = at + 1;
      // A known id counts as present even when the rest of its row is wrong, so it is reported once, not also as missing.
      if (at === undefined) problems.push({ line, message: id ? `编号“${show(id)}”不在测试集中` : '编号为空' });
      else if (seen[at]) problems.push({ line, message: `编号“${show(id)}”重复` });
      else {
        seen[at] = 1;
        const value = fields.length === cols.width ? parseValue(ev.metric, fields[cols.target]!, 'prediction') : { problem: '列数与表头不一致' };
        if (typeof value === 'object') problems.push({ line, message: value.problem });
        else (answers.isPublic[at] ? pub : priv).add(answers.truth[at], value);
      }
      if (problems.length >= MAX_PROBLEMS) break read;
    }
  }
  if (!cols) throw new CsvError([{ line: 0, message: '文件为空' }]);
  if (problems.length < MAX_PROBLEMS) {
    const missing: string[] = [];
    let count = 0;
    for (let i = 0; i < seen.length; i++) {
      if (!seen[i]) {
        count++;
        if (missing.length < 3) missing.push(answers.ids[i]!);
      }
    }
    if (count) problems.push({ line: 0, message: `缺少${count}个编号的预测，例如：${missing.map(show).join('、')}` });
  }
  if (problems.length) throw new CsvError(problems);
  return { publicScore: pub.result(), privateScore: priv.result(), rows };
}
