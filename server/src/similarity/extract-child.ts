/**
 * The process that reads works files for 查重 (issue 37): a participant's PDF or DOCX is parsed here, and teams' code
 * by tree-sitter (Dolos), never in the server or worker, so a file built to exhaust memory or loop only ends this
 * process (extractor.ts restarts it and lists the file as unreadable). One request a line on stdin: `{"id", "path",
 * "name"}` to read a works file, or `{"id", "kind": "code", "path"}` to compare code (the path names a JSON file of the
 * language, the submissions and the baseline); one answer a line on stdout: `{"id", "result"}` or `{"id", "error"}`.
 * It is started with a small heap and without the server's environment.
 */
import fs from 'node:fs/promises';
import readline from 'node:readline';
import { compareCode } from './code.ts';
import type { CodeLanguage } from './extract.ts';
import { MAX_TEXT_CHARS, extractWorks } from './extract.ts';

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const req = JSON.parse(line) as { id: number; path: string; name?: string; kind?: 'code' };
  try {
    let result: unknown;
    if (req.kind === 'code') {
      const job = JSON.parse(await fs.readFile(req.path, 'utf8')) as {
        language: CodeLanguage;
        submissions: { id: number; text: string }[];
        baseline: string | null;
      };
      result = await compareCode(job.language, job.submissions, job.baseline);
    } else {
      // Only what is kept crosses to the worker: a huge text layer stays here.
      const read = await extractWorks(await fs.readFile(req.path), req.name ?? '');
      result = { ...read, text: read.text.replaceAll('\u0000', '').slice(0, MAX_TEXT_CHARS) };
    }
    process.stdout.write(`${JSON.stringify({ id: req.id, result })}\n`);
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ id: req.id, error: String((err as Error)?.message ?? err) })}\n`);
  }
}
