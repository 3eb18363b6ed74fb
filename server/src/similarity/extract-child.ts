/**
 * The process that reads works files for 查重 (issue 37): a participant's PDF or DOCX is parsed here, never in the
 * server or worker, so a file built to exhaust memory or loop only ends this process (extractor.ts restarts it and
 * lists the file as unreadable). One request a line on stdin: `{"id", "path", "name"}`; one answer a line on stdout:
 * `{"id", "result"}` or `{"id", "error"}`. It is started with a small heap and without the server's environment.
 */
import fs from 'node:fs/promises';
import readline from 'node:readline';
import { extractWorks } from './extract.ts';

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const req = JSON.parse(line) as { id: number; path: string; name: string };
  try {
    const result = await extractWorks(await fs.readFile(req.path), req.name);
    process.stdout.write(`${JSON.stringify({ id: req.id, result })}\n`);
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ id: req.id, error: String((err as Error)?.message ?? err) })}\n`);
  }
}
