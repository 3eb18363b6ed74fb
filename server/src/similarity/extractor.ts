import { spawn, type ChildProcess } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import type { CodePair } from './code.ts';
import { REASONS, type CodeLanguage, type Extracted } from './extract.ts';

/** What a file that ended the reading process, or took too long, is listed with. */
export const FAILED_READING = {
  timeout: '文件读取超时，无法提取文字',
  crashed: '文件无法解析（读取时出错），无法提取文字',
} as const;

const REPO = path.resolve(import.meta.dirname, '../../..');
const CHILD = path.join(import.meta.dirname, 'extract-child.ts');

export interface ExtractorOptions {
  /** Longest a file may take to read. */
  timeoutMs?: number;
  /** Heap of the reading process, in MB. */
  heapMb?: number;
  /** Longest a question's comparison of code in one language may take. */
  codeTimeoutMs?: number;
}

/**
 * Reads works files in a child process (extract-child.ts), one at a time. A file that makes the process fail or take
 * longer than `timeoutMs` (a minute) is given back as unreadable with the reason, and the next file gets a new process; nothing
 * a file does reaches the caller's process.
 */
export class Extractor {
  private child: ChildProcess | null = null;
  /** Requests waiting for their answer, each with the process it was sent to. */
  private waiting = new Map<number, { child: ChildProcess; resolve: (answer: { result?: unknown; error?: string }) => void }>();
  private next = 1;
  constructor(private readonly options: ExtractorOptions = {}) {}

  /** The process ended or never started: its requests fail (those sent to a newer one are not its). */
  private lost(child: ChildProcess) {
    if (this.child === child) this.child = null;
    for (const [id, w] of this.waiting) {
      if (w.child !== child) continue;
      this.waiting.delete(id);
      w.resolve({ error: 'crashed' });
    }
  }

  private start() {
    const child = spawn(process.execPath, [`--max-old-space-size=${this.options.heapMb ?? 512}`, '--import', 'tsx', CHILD], {
      cwd: REPO,
      // Nothing of the server's configuration (database address, secrets) is handed to the process that parses files.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NODE_ENV: 'production' },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      let answer: { id: number; result?: unknown; error?: string };
      try {
        answer = JSON.parse(line);
      } catch {
        return;
      }
      this.waiting.get(answer.id)?.resolve(answer);
    });
    child.on('exit', () => this.lost(child));
    // A process that could not be started (no memory, too many processes) fails its requests, never the caller.
    child.on('error', () => this.lost(child));
    child.stdin!.on('error', () => undefined);
    this.child = child;
    return child;
  }

  /** Sends one request and waits for its answer, or for the process to fail or the time to run out. */
  private ask<T>(request: object, timeoutMs: number): Promise<{ result?: T; error?: string; timedOut?: boolean }> {
    const child = this.child ?? this.start();
    const id = this.next++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve({ timedOut: true });
        // The next request gets a new process at once, not the one being killed.
        if (this.child === child) this.child = null;
        child.kill('SIGKILL');
      }, timeoutMs);
      this.waiting.set(id, {
        child,
        resolve: (a) => {
          clearTimeout(timer);
          this.waiting.delete(id);
          resolve(a as { result?: T; error?: string });
        },
      });
      child.stdin!.write(`${JSON.stringify({ id, ...request })}\n`);
    });
  }

  /** The text of the file at `file`, named `name` (its extension says how to read it). */
  async read(file: string, name: string): Promise<Extracted> {
    const answer = await this.ask<Extracted>({ path: file, name }, this.options.timeoutMs ?? 60_000);
    if (answer.result) return answer.result;
    const reason = answer.timedOut ? FAILED_READING.timeout : answer.error === 'crashed' ? FAILED_READING.crashed : REASONS.broken;
    return { text: '', files: [{ name, chars: 0, reason, meta: {} }], entries: [], otherEntries: 0, code: [] };
  }

  /**
   * Pairs of the submissions' code (one text per team) in `language`, the baseline left out; null when the comparison
   * failed (the process ended or ran out of time). `file` is a scratch path for the request.
   */
  async compareCode(file: string, job: { language: CodeLanguage; submissions: { id: number; text: string }[]; baseline: string | null }) {
    await fsp.writeFile(file, JSON.stringify(job));
    const answer = await this.ask<CodePair[]>({ kind: 'code', path: file }, this.options.codeTimeoutMs ?? 600_000);
    return answer.result ?? null;
  }

  close() {
    this.child?.kill('SIGKILL');
    this.child = null;
  }
}
