import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/contract', 'apps/server', 'apps/web'],
    // A worker per core, where Vitest leaves one core out: the suites wait on PostgreSQL, Redis, SMTP and child
    // processes much of the time, and on a 2-core machine one worker ran them a third slower than two.
    maxWorkers: os.availableParallelism(),
  },
});
