import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CsvError, memoryCsv } from '../src/scoring/csv.ts';
import { ProgramFailure, readScore, runProgram, scoreWithProgram, splitBoards } from '../src/scoring/custom.ts';
import { runFolder } from '../src/scoring/sandbox.ts';
import { isPublicRow } from '../src/scoring/split.ts';

const SETTING = { salt: 'custom-scorer-test', publicShare: 0.5, split: 'keyed' as const };
const IDS = Array.from({ length: 60 }, (_, i) => `r${i}`);
const ANSWER = ['id,y,weight', ...IDS.map((id, i) => `${id},${i % 3},"${i},5"`)].join('\n');
/** Predictions right on every row but those in `wrong`. */
const prediction = (wrong: Set<string> = new Set()) => ['id,y', ...IDS.map((id, i) => `${id},${wrong.has(id) ? 9 : i % 3}`)].join('\n');

/** A scorer as an organiser writes it: pandas, accuracy on the rows it is given, the score as JSON on the last line. */
const SCORER = `
import json, sys
import pandas as pd
a = pd.read_csv(sys.argv[1]); p = pd.read_csv(sys.argv[2])
m = a.merge(p, on="id", suffixes=("_a", "_p"))
assert len(m) == len(a) == len(p), "rows differ"
print("rows:", len(m))
print(json.dumps({"score": float((m.y_a == m.y_p).mean())}))
`;

function withFolder<T>(run: (dir: string) => Promise<T>) {
  const folder = runFolder(path.join(os.tmpdir(), 'contest-custom-test'));
  return run(folder.dir).finally(folder.done);
}
function programFiles(dir: string, text: string) {
  const file = path.join(dir, 'score.py');
  fs.writeFileSync(file, text);
  return [{ name: 'score.py', hostPath: file }];
}

/** Organisers' own scoring programs (issue 23, item 2): the contract around the program. */
describe('a custom scoring program', () => {
  it('gives each board its own rows of both files, headers kept, quoted fields intact', async () => {
    await withFolder(async (dir) => {
      const boards = await splitBoards(memoryCsv(ANSWER), memoryCsv(prediction()), 'id', SETTING, dir);
      const expected = IDS.filter((id) => isPublicRow(id, SETTING));
      expect(boards.public.rows).toBe(expected.length);
      expect(boards.private.rows).toBe(IDS.length - expected.length);
      const pub = fs.readFileSync(boards.public.answer, 'utf8').trim().split('\n');
      expect(pub[0]).toBe('id,y,weight');
      expect(pub.slice(1).map((l) => l.split(',')[0])).toEqual(expected);
      expect(pub[1]).toMatch(/^r\d+,\d,"\d+,5"$/);
      const pubPred = fs.readFileSync(boards.public.prediction, 'utf8').trim().split('\n');
      expect(pubPred.slice(1).map((l) => l.split(',')[0])).toEqual(expected);
      const priv = fs
        .readFileSync(boards.private.prediction, 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',')[0]);
      expect(priv.some((id) => expected.includes(id!))).toBe(false);
    });
  });

  it('refuses a prediction with unknown, repeated or missing ids before running anything, naming the lines', async () => {
    await withFolder(async (dir) => {
      const bad = [...prediction().split('\n').slice(0, 50), 'zz,1', 'r1,1'].join('\n');
      const err = await splitBoards(memoryCsv(ANSWER), memoryCsv(bad), 'id', SETTING, dir).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CsvError);
      const message = (err as CsvError).message;
      expect(message).toContain('第51行：编号“zz”不在测试集中');
      expect(message).toContain('第52行：编号“r1”重复出现');
      expect(message).toContain('缺少11个测试集编号的预测');
      const noId = await splitBoards(memoryCsv(ANSWER), memoryCsv('key,y\nr1,1\n'), 'id', SETTING, dir).catch((e: unknown) => e);
      expect((noId as CsvError).message).toContain('表头须包含“id”列');
    });
  });

  it('gives the program the reading of a file that was checked, when UTF-8 Chinese also reads as GBK', async () => {
    // “猫咪” in UTF-8 is valid GB18030 too: the file is read both ways, and the UTF-8 reading is the one kept.
    const labels = ['猫咪', '狗狗', '小鸟'];
    const answer = ['id,label', ...IDS.map((id, i) => `${id},${labels[i % 3]}`)].join('\n');
    const guess = ['id,label', ...IDS.map((id, i) => `${id},${labels[(i + 1) % 3]}`)].join('\n');
    await withFolder(async (dir) => {
      const boards = await splitBoards(memoryCsv(Buffer.from(answer)), memoryCsv(Buffer.from(guess)), 'id', SETTING, dir);
      const read = (file: string) =>
        fs
          .readFileSync(file, 'utf8')
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => l.split(',')[1]);
      for (const board of ['public', 'private'] as const) {
        expect(new Set(read(boards[board].answer))).toEqual(new Set(labels));
        expect(new Set(read(boards[board].prediction))).toEqual(new Set(labels));
      }
    });
  });

  it('runs the program once per board in the sandbox and reads both scores', async () => {
    await withFolder(async (dir) => {
      const wrong = new Set(IDS.filter((id) => isPublicRow(id, SETTING)).slice(0, 3));
      const boards = await splitBoards(memoryCsv(ANSWER), memoryCsv(prediction(wrong)), 'id', SETTING, dir);
      const scores = await runProgram(programFiles(dir, SCORER), boards, { timeLimitSec: 30, memoryBytes: 1024 ** 3 });
      expect(scores.publicScore).toBeCloseTo(1 - 3 / boards.public.rows, 12);
      expect(scores.privateScore).toBe(1);
    });
  });

  it('fails a program that breaks its contract, with its standard error for the organiser only', async () => {
    await withFolder(async (dir) => {
      const boards = await splitBoards(memoryCsv(ANSWER), memoryCsv(prediction()), 'id', SETTING, dir);
      const failing = programFiles(dir, 'import sys\nprint("answer row 1 is", open(sys.argv[1]).readlines()[1], file=sys.stderr)\nraise SystemExit(3)\n');
      const err = await runProgram(failing, boards, { timeLimitSec: 30, memoryBytes: 1024 ** 3 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProgramFailure);
      expect((err as ProgramFailure).message).toBe('评分程序异常退出（退出码3）');
      // The team's message says nothing of the answers; the organiser's detail has what the program wrote.
      expect((err as ProgramFailure).message).not.toContain('answer row');
      expect((err as ProgramFailure).stderr).toContain('answer row 1 is');
    });
  });

  it('reads the score only from a last line {"score": <finite number>}', () => {
    const run = (stdout: string, over: object = {}) => ({
      exitCode: 0,
      signal: null,
      timedOut: false,
      outputCapped: false,
      memoryExceeded: false,
      stdout,
      stderr: '',
      seconds: 0,
      ...over,
    });
    expect(readScore(run('log\n{"score": 0.5}\n\n'))).toEqual({ score: 0.5 });
    expect(readScore(run('{"score": 0.5}\nbye'))).toEqual({ failure: '评分程序最后一行输出不是 {"score": 数字} 格式的JSON' });
    expect(readScore(run('{"score": "0.5"}'))).toEqual({ failure: '评分程序最后一行输出不是 {"score": 数字} 格式的JSON' });
    expect(readScore(run('{"score": NaN}'))).toEqual({ failure: '评分程序最后一行输出不是 {"score": 数字} 格式的JSON' });
    expect(readScore(run('{"score": 1e999}'))).toEqual({ failure: '评分程序输出的得分不是有限的数字' });
    expect(readScore(run(''))).toEqual({ failure: '评分程序没有输出得分' });
    expect(readScore(run('{"score": 1}', { timedOut: true, exitCode: null }))).toEqual({ failure: '评分程序超过时间限制，已被终止' });
    expect(readScore(run('{"score": 1}', { exitCode: null }))).toEqual({ failure: '评分程序被终止（可能超出内存限制）' });
    expect(readScore(run('', { exitCode: 137, memoryExceeded: true }))).toEqual({ failure: '评分程序的进程合计超出内存限制，已被终止' });
    // A refusal of the file, for the team: whatever the exit code, on one line, cut at 300 characters.
    expect(readScore(run('checking\n{"error": "缺少 label 列"}'))).toEqual({ failure: '缺少 label 列', refusal: true });
    expect(readScore(run('{"error": "第3行\\n取值越界"}', { exitCode: 2 }))).toEqual({ failure: '第3行 取值越界', refusal: true });
    expect(readScore(run(JSON.stringify({ error: '长'.repeat(400) })))).toEqual({ failure: '长'.repeat(300), refusal: true });
    // An empty or non-text error is no explanation: the failure is the program's.
    expect(readScore(run('{"error": "  "}', { exitCode: 1 }))).toEqual({ failure: '评分程序异常退出（退出码1）' });
    expect(readScore(run('{"error": 3}'))).toEqual({ failure: '评分程序最后一行输出不是 {"score": 数字} 格式的JSON' });
    // A time limit or the memory limit is the program's failure, whatever it printed.
    expect(readScore(run('{"error": "x"}', { timedOut: true, exitCode: null }))).toEqual({ failure: '评分程序超过时间限制，已被终止' });
    // A program whose own child was killed for memory, and which still printed its score and ended well, is scored.
    expect(readScore(run('{"score": 1}', { memoryExceeded: true }))).toEqual({ score: 1 });
  });

  it('lets the program read its files and modules whatever the server’s umask', async () => {
    const saved = process.umask(0o077);
    try {
      const program = [
        { name: 'score.py', data: Buffer.from('import json\nfrom lib.rows import count\nprint(json.dumps({"score": count()}))\n') },
        { name: 'lib/__init__.py', data: Buffer.from('') },
        { name: 'lib/rows.py', data: Buffer.from('def count():\n    return sum(1 for _ in open("answer.csv")) - 1\n') },
      ];
      const out = await scoreWithProgram(
        { answer: memoryCsv(ANSWER), prediction: memoryCsv(prediction()), program, idColumn: 'id', split: SETTING, timeLimitSec: 30 },
        { runner: 'bwrap', image: '', memoryBytes: 1024 ** 3, workDir: path.join(os.tmpdir(), 'contest-custom-umask') },
      );
      expect(out.publicScore! + out.privateScore!).toBe(IDS.length);
    } finally {
      process.umask(saved);
    }
  });
});
