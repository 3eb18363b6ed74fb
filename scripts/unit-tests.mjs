#!/usr/bin/env node
// `npm run test:unit`: every unit test file, in an order shuffled by a seed that is printed first, so that a test
// passing only after another shows up, and a failing order can be run again: TEST_SEED=<seed> npm run test:unit.
// Extra arguments go to vitest (a file, -t "name").
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';

const seed = process.env.TEST_SEED ? Number(process.env.TEST_SEED) : randomInt(1, 2 ** 31 - 1);
if (!Number.isSafeInteger(seed) || seed <= 0) {
  console.error(`TEST_SEED must be a positive whole number, not ${process.env.TEST_SEED}`);
  process.exit(2);
}
console.log(`unit tests shuffled with seed ${seed} (again in this order: TEST_SEED=${seed} npm run test:unit)`);
const run = spawnSync('npx', ['vitest', 'run', '--sequence.shuffle', `--sequence.seed=${seed}`, ...process.argv.slice(2)], { stdio: 'inherit' });
if (run.status !== 0) console.log(`unit tests failed with seed ${seed}: TEST_SEED=${seed} npm run test:unit`);
process.exit(run.status ?? 1);
