import { CsvError, readCsv, type CsvInput, type CsvProblem, type CsvRecord } from './csv.ts';
import { IdIndex } from './ids.ts';
import { NUMERIC_PREDICTION, accumulator, metricKind, valueProblem, type Accumulator, type Metric } from './metrics.ts';
import { PredictionSketch } from './fingerprint.ts';
import { splitter, type SplitRule } from './split.ts';

export { IdIndex } from './ids.ts';
export { isPublicRow, type SplitRule } from './split.ts';

export interface Evaluation {
  metric: Metric;
  idColumn: string;
  targetColumn: string;
  /** Share of the rows (0 to 1) that make the public score; the rest make the private one. */
  publicShare: number;
  /** Per-question secret that decides which rows are public, so nobody can tell from the ids. */
  salt: string;
  /** The positive class of f1, precision and recall ('1' when not set). */
  positiveLabel?: string;
  /** The K of mapAtK (10 when not set). */
  k?: number;
  /** How the public rows are drawn (split.ts); `keyed` when not set. */
  split?: SplitRule;
}

/** The hidden answers, indexed for one pass over a submission. */
export interface Answers {
  /** The ids, row by row (ids.ts). */
  index: IdIndex;
  /** The true value of each row: numbers for the numeric metrics, else text (a label held once however many rows have it). */
  truth: Float64Array | string[];
  isPublic: Uint8Array;
}

/** Bytes an answer file takes once loaded, for the cache's bound (a number in an array: 8; a label: shared). */
export function answersBytes(a: Answers): number {
  return a.index.byteSize + (a.truth instanceof Float64Array ? a.truth.byteLength : a.truth.length * 8) + a.isPublic.byteLength;
}

/** Submissions stop being read after this many problems: enough to fix a file, not a flood. */
const MAX_PROBLEMS = 20;
const show = (v: string) => (v.length > 40 ? `${v.slice(0, 40)}…` : v);

function headerIndexes(fields: string[], ev: Evaluation, line: number) {
  const names = fields.map((f) => f.trim());
  const id = names.indexOf(ev.idColumn);
  const target = names.indexOf(ev.targetColumn);
  if (id < 0 || target < 0) throw new CsvError([{ line, message: `表头须包含“${ev.idColumn}”和“${ev.targetColumn}”两列` }]);
  const twice = [ev.idColumn, ev.targetColumn].find((c) => names.lastIndexOf(c) !== names.indexOf(c));
  if (twice) throw new CsvError([{ line, message: `表头中“${show(twice)}”列出现了不止一次` }]);
  return { id, target, width: names.length };
}

type Parsed = string | number | { problem: string };
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * How one value of a column is read for the metric (made once per file: a million rows are not sent through the
 * metric's table each): the parsed value, or a problem text. Number() accepts what the NUMBER pattern does, plus ''
 * and 0x/0b/0o literals (and infinities, refused as not finite), so the pattern runs only on values refused anyway.
 */
function valueParser(metric: Metric, side: 'truth' | 'prediction'): (raw: string) => Parsed {
  if (!NUMERIC_PREDICTION[metric]) {
    // A ranking may be empty (no item predicted for the row); a label may not.
    const mayBeEmpty = side === 'prediction' && metricKind(metric) === 'ranking';
    return (raw) => {
      const v = raw.trim();
      return v === '' && !mayBeEmpty ? { problem: '值为空' } : v;
    };
  }
  // Most numeric metrics take any finite number; the others check each one (valueProblem, and truthProblem for answers).
  const checked = [0.5, -1, 0, 2].some((n) => valueProblem(metric, n, side) !== null || (side === 'truth' && truthProblem(metric, n) !== null));
  return (raw) => {
    const v = raw.trim();
    const n = +v;
    if (v === '' || n - n !== 0 || (v.charCodeAt(0) === 48 && v.length > 1 && 'xXbBoO'.includes(v[1]!))) {
      return { problem: v === '' || !NUMBER.test(v) ? `不是数字：${show(v)}` : `不是有限的数字：${show(v)}` };
    }
    if (!checked) return n;
    const problem = valueProblem(metric, n, side) ?? (side === 'truth' ? truthProblem(metric, n) : null);
    return problem ? { problem } : n;
  };
}

const probability = valueParser('logLoss', 'prediction');

/**
 * The header of a prediction for the metrics of several classes: the id column and one column per class, named by the
 * class label; every class of the answers must have its column. A column for a class the answers lack is a class too
 * (its probability counts in the row's sum of 1).
 */
function classColumns(fields: string[], answers: Answers, ev: Evaluation, line: number) {
  const names = fields.map((f) => f.trim());
  const id = names.indexOf(ev.idColumn);
  const format = `表头须为“${ev.idColumn}”列加每个类别一列（列名为类别标签）`;
  if (id < 0) throw new CsvError([{ line, message: `${format}，缺少“${ev.idColumn}”列` }]);
  const columns = names.map((_, i) => i).filter((i) => i !== id);
  const classes = columns.map((i) => names[i]!);
  const twice = classes.find((c, i) => classes.indexOf(c) !== i);
  if (twice !== undefined) throw new CsvError([{ line, message: twice ? `表头中类别“${show(twice)}”重复` : '表头有空列名' }]);
  if (classes.includes('')) throw new CsvError([{ line, message: '表头有空列名' }]);
  const index = new Map(classes.map((c, i) => [c, i]));
  const lacking = [...new Set(Array.from(answers.truth, String))].filter((c) => !index.has(c));
  if (lacking.length)
    throw new CsvError([
      { line, message: `${format}，缺少类别：${lacking.slice(0, 5).map(show).join('、')}${lacking.length > 5 ? ` 等${lacking.length}个` : ''}` },
    ]);
  return { id, width: names.length, columns, classes, index };
}

/** One row's probabilities, in the order of the class columns; each in [0, 1], summing to 1 within 1e-6. */
function parseProbabilities(fields: string[], cols: ReturnType<typeof classColumns>): Float64Array | { problem: string } {
  const p = new Float64Array(cols.columns.length);
  let sum = 0;
  for (let c = 0; c < p.length; c++) {
    // The binary log-loss reads one probability exactly as a class column needs: a finite number in [0, 1].
    const v = probability(fields[cols.columns[c]!]!);
    if (typeof v !== 'number') return { problem: `类别“${show(cols.classes[c]!)}”：${typeof v === 'object' ? v.problem : v}` };
    p[c] = v;
    sum += v;
  }
  if (Math.abs(sum - 1) > 1e-6) return { problem: `各类别概率之和为${sum}，须为1（误差不超过1e-6）` };
  return p;
}

/** Metrics ranking the probability of a positive class: truth 0 or 1, and both present. */
const BINARY_RANKING = new Set<string>(['auc', 'gini', 'averagePrecision']);
/** Metrics over the probabilities of several classes: the truth names a class, and two at least are needed. */
const MULTI_CLASS = new Set<string>(['multiLogLoss', 'multiAuc']);
const METRIC_LABEL: Record<string, string> = {
  auc: 'AUC',
  gini: 'Gini',
  averagePrecision: '平均精度（AP）',
  multiLogLoss: '多分类对数损失',
  multiAuc: '多分类AUC',
};

/**
 * What the metric needs of one true value beyond being read (keyed by metric code, so it holds whichever metrics
 * exist): 0 or 1 for the ranking metrics, no zero for MAPE, nothing negative for RMSLE, whole grades for QWK.
 */
function truthProblem(metric: string, value: string | number): string | null {
  const n = typeof value === 'number' ? value : Number(value);
  if (BINARY_RANKING.has(metric) && n !== 0 && n !== 1) return '真实值须为0或1';
  if (metric === 'mape' && n === 0) return '真实值为0，不能计算MAPE';
  if (metric === 'rmsle' && !(n >= 0)) return `RMSLE的真实值不能为负数：${show(String(value))}`;
  if (metric === 'qwk' && !(typeof value === 'number' ? Number.isInteger(value) : /^[+-]?\d+$/.test(value.trim())))
    return `QWK的真实值须为整数等级：${show(String(value))}`;
  return null;
}

/**
 * What the metric needs of the answers as a whole, checked once they are read: both classes for the ranking metrics,
 * in each board's share of the rows too (a board whose rows hold one class could never be scored), and two classes
 * at least for the multi-class metrics.
 */
function answersProblem(metric: string, answers: Answers): string | null {
  const name = METRIC_LABEL[metric] ?? metric;
  if (BINARY_RANKING.has(metric)) {
    // [public, private] × [negatives, positives]
    const counts = [
      [0, 0],
      [0, 0],
    ];
    for (let i = 0; i < answers.truth.length; i++) counts[answers.isPublic[i] ? 0 : 1]![Number(answers.truth[i]) === 1 ? 1 : 0]!++;
    const [pubNeg, pubPos] = counts[0]!;
    const [privNeg, privPos] = counts[1]!;
    if (!(pubPos! + privPos!) || !(pubNeg! + privNeg!)) return `答案只有一个类别（全部为${pubPos! + privPos! ? 1 : 0}），${name}需要0和1两类都出现`;
    for (const [board, neg, pos] of [
      ['公榜', pubNeg!, pubPos!],
      ['私榜', privNeg!, privPos!],
    ] as const) {
      if (neg + pos > 0 && (!neg || !pos)) return `按公榜比例划分后，${board}部分的答案只有一个类别，${name}无法计算；请增加样本或调整公榜比例`;
    }
  }
  if (MULTI_CLASS.has(metric)) {
    const first = answers.truth[0]!;
    if (Array.from(answers.truth as ArrayLike<string | number>).every((t) => t === first))
      return `答案只有一个类别（${show(String(first))}），${name}至少需要两个类别`;
  }
  return null;
}

/** Reads the organiser's answer file; its problems are reported to the organiser at upload, with line numbers. */
export async function loadAnswers(source: CsvInput, ev: Evaluation): Promise<Answers> {
  // The reader decides the encoding on the whole file; a file two encodings read differently is refused (csv.ts).
  const same = (a: Answers, b: Answers) => {
    if (a.index.size !== b.index.size) return false;
    for (let i = 0; i < a.index.size; i++) if (a.truth[i] !== b.truth[i] || !a.index.equalsAt(i, b.index.idAt(i))) return false;
    return true;
  };
  return readCsv(source, (batches) => answersFrom(batches, ev), { same });
}

async function answersFrom(batches: AsyncIterable<CsvRecord[]>, ev: Evaluation): Promise<Answers> {
  if (ev.idColumn.trim() === ev.targetColumn.trim()) throw new CsvError([{ line: 0, message: '编号列与目标列不能是同一列' }]);
  const index = new IdIndex();
  const truth: (string | number)[] = [];
  const split = splitter(ev);
  const parse = valueParser(ev.metric, 'truth');
  const flags: Uint8Array[] = [];
  // Each row's line, for a repeated id found once every id is in.
  let lines = new Uint32Array(1 << 12);
  // Labels repeat: each is kept once (up to 65,536 of them), not once per row. Rankings are a set per row.
  const labels = metricKind(ev.metric) === 'ranking' ? null : new Map<string, string>();
  const problems: CsvProblem[] = [];
  let cols: ReturnType<typeof headerIndexes> | undefined;
  read: for await (const batch of batches) {
    const accepted: string[] = [];
    for (const { line, fields } of batch) {
      if (!cols) {
        cols = headerIndexes(fields, ev, line);
        continue;
      }
      const id = (fields[cols.id] ?? '').trim();
      let value = parse(fields[cols.target] ?? '');
      const problem = typeof value === 'object' ? value.problem : null;
      if (fields.length !== cols.width) problems.push({ line, message: '列数与表头不一致' });
      else if (!id) problems.push({ line, message: '编号为空' });
      else if (problem) problems.push({ line, message: problem });
      else {
        if (typeof value === 'string' && labels) {
          const held = labels.get(value);
          if (held !== undefined) value = held;
          else if (labels.size < 65_536) labels.set(value, value);
        }
        if (index.size === lines.length) {
          const more = new Uint32Array(lines.length * 2);
          more.set(lines);
          lines = more;
        }
        lines[index.size] = line;
        index.push(id);
        truth.push(value as string | number);
        accepted.push(id);
      }
      if (problems.length >= MAX_PROBLEMS) break read;
    }
    if (!problems.length && accepted.length) flags.push(split(accepted));
  }
  if (!cols) throw new CsvError([{ line: 0, message: '文件为空' }]);
  if (problems.length < MAX_PROBLEMS) {
    for (const { row } of index.build()) problems.push({ line: lines[row]!, message: `编号“${show(index.idAt(row))}”重复` });
  }
  if (problems.length) throw new CsvError(problems.sort((a, b) => a.line - b.line).slice(0, MAX_PROBLEMS));
  if (!index.size) throw new CsvError([{ line: 0, message: '文件没有数据行' }]);
  const answers: Answers = {
    index,
    truth: NUMERIC_PREDICTION[ev.metric] ? Float64Array.from(truth as number[]) : (truth as string[]),
    isPublic: Buffer.concat(flags),
  };
  const problem = answersProblem(ev.metric, answers);
  if (problem) throw new CsvError([{ line: 0, message: problem }]);
  return answers;
}

export interface ScoreResult {
  publicScore: number | null;
  privateScore: number | null;
  rows: number;
  /** The private rows' fingerprint (fingerprint.ts), for finding duplicate accounts; absent when not asked for. */
  fingerprint?: string;
}

/**
 * Scores a prediction file in one streaming pass: the header must name the id and target columns, every answer id must
 * appear exactly once and no other; problems come back with their line numbers and never show an answer value.
 */
export async function scoreSubmission(source: CsvInput, answers: Answers, ev: Evaluation, options: { fingerprint?: boolean } = {}): Promise<ScoreResult> {
  const fingerprint = options.fingerprint ?? true;
  // A file two encodings read differently: the reading whose ids and labels the answers recognise wins (csv.ts).
  const same = (a: ScoreResult, b: ScoreResult) => Object.is(a.publicScore, b.publicScore) && Object.is(a.privateScore, b.privateScore) && a.rows === b.rows;
  // Labels are compared as text; numbers read the same in both encodings, so only the ids tell those readings apart.
  const known = () => ({
    [ev.idColumn]: answers.index,
    ...(typeof answers.truth[0] === 'string' && { [ev.targetColumn]: new Set(answers.truth as string[]) }),
  });
  return readCsv(source, (batches) => scoreFrom(batches, answers, ev, fingerprint ? new PredictionSketch() : null), { same, known });
}

async function scoreFrom(batches: AsyncIterable<CsvRecord[]>, answers: Answers, ev: Evaluation, sketch: PredictionSketch | null): Promise<ScoreResult> {
  const seen = new Uint8Array(answers.index.size);
  const parse = valueParser(ev.metric, 'prediction');
  const options = { positiveLabel: ev.positiveLabel, k: ev.k };
  let pub = accumulator(ev.metric, options) as Accumulator<unknown, unknown>;
  let priv = accumulator(ev.metric, options) as Accumulator<unknown, unknown>;
  // For the metrics of several classes: the class columns, read from the header.
  let classes: ReturnType<typeof classColumns> | undefined;
  const problems: CsvProblem[] = [];
  let cols: ReturnType<typeof headerIndexes> | undefined;
  let rows = 0;
  // Prediction files usually keep the answer file's order: comparing with the id expected next is far cheaper than a
  // lookup in a million-entry map, which stays the fallback.
  let next = 0;
  read: for await (const batch of batches) {
    for (const { line, fields } of batch) {
      if (!cols) {
        if (metricKind(ev.metric) === 'classProbabilities') {
          classes = classColumns(fields, answers, ev, line);
          cols = { id: classes.id, target: -1, width: classes.width };
          pub = accumulator(ev.metric, { ...options, classes: classes.classes }) as Accumulator<unknown, unknown>;
          priv = accumulator(ev.metric, { ...options, classes: classes.classes }) as Accumulator<unknown, unknown>;
        } else cols = headerIndexes(fields, ev, line);
        continue;
      }
      rows++;
      const id = (fields[cols.id] ?? '').trim();
      const at = next < seen.length && answers.index.equalsAt(next, id) ? next : answers.index.get(id);
      if (at !== undefined) next = at + 1;
      // A known id counts as present even when the rest of its row is wrong, so it is reported once, not also as missing.
      if (at === undefined) problems.push({ line, message: id ? `编号“${show(id)}”不在测试集中` : '编号为空' });
      else if (seen[at]) problems.push({ line, message: `编号“${show(id)}”重复` });
      else {
        seen[at] = 1;
        const value =
          fields.length !== cols.width ? { problem: '列数与表头不一致' } : classes ? parseProbabilities(fields, classes) : parse(fields[cols.target]!);
        if (typeof value === 'object' && !(value instanceof Float64Array)) problems.push({ line, message: value.problem });
        else if (answers.isPublic[at]) pub.add(classes ? classes.index.get(String(answers.truth[at])) : answers.truth[at], value);
        else {
          priv.add(classes ? classes.index.get(String(answers.truth[at])) : answers.truth[at], value);
          sketch?.add(at, value, answers.truth[at]);
        }
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
        if (missing.length < 3) missing.push(answers.index.idAt(i));
      }
    }
    if (count) problems.push({ line: 0, message: `缺少${count}个编号的预测，例如：${missing.map(show).join('、')}` });
  }
  if (problems.length) throw new CsvError(problems);
  return { publicScore: pub.result(), privateScore: priv.result(), rows, ...(sketch?.rowsSeen && { fingerprint: sketch.encode() }) };
}
