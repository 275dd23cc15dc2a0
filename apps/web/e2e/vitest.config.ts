import { defineConfig } from 'vitest/config';

/** Browser tests: the built server as a real process, driven by Playwright in Debian's Chromium. */
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll's 1 s default suits a unit test, not a screen that waits on the server: on a busy shared machine a
    // page took longer than that to enable its button (CI failed so), where Playwright's own waits allow 30 s.
    expect: { poll: { timeout: 15_000 } },
    // Each file starts its own server and browser; two at a time fit this machine's two cores.
    maxWorkers: 2,
  },
});
