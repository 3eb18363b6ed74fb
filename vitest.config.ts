import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/shared/test/**/*.test.ts', 'server/test/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}', 'desktop/test/**/*.test.ts'],
    setupFiles: ['web/src/test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default leaves a core free, which on CI's two cores runs the files one at a time. Test files are
    // independent (each app has its own data directory, SQLite file and PostgreSQL schema), and much of a file's time
    // is spent waiting on a database or a child process, so two at once fit two cores.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
