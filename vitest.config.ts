import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/shared/test/**/*.test.ts', 'server/test/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}', 'desktop/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
