// Test projects: `unit` (the site's logic and components, jsdom), `node` (Node and Deno code: the
// local stack, the Edge Function's pure modules, project checks; no servers), `integration`
// (real local stacks started once per run on free ports in temporary folders; see tests/setup/)
// and `browser` (tests/e2e in real Chromium, on stacks of its own).
// `load` (tests/load/, load and fault tests, each file on a stack of its own) exists only with
// LOAD_TESTS=1, which `npm run test:load` sets, so `npm test` never runs it.
import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { chakraThemeAlias, siteEnv } from './vite.config.ts';
import { isRemoteTarget } from './scripts/verify-env.ts';

/**
 * The unit and node files touch no server: they run first, two at a time (measured on two cores:
 * the unit files in 279 s instead of 353 s one at a time).
 */
const PURE_FILES = { maxWorkers: 2, sequence: { groupOrder: 0 } };

/**
 * The integration files run after them, then the browser files, each two at a time, every file on
 * a stack no other file uses while it runs: tests/setup/stack.ts starts one per worker, and a file
 * holds one from before its tests load until they are done (tests/setup/hold-stack.ts). Alone, a
 * file of either leaves the CPU idle about half the time, waiting on the stack or the page: on
 * two cores, two at a time took the integration files from 214 s to 128 s and the browser files
 * from 535 s to 370–430 s. A deployment under `npm run verify` is one stack, so there they go one
 * at a time.
 */
const FILES_ON_OWN_STACKS = { maxWorkers: isRemoteTarget(process.env) ? 1 : 2 };

export default defineConfig({
  plugins: [react(), siteEnv()],
  resolve: { alias: chakraThemeAlias },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/setup/unit.ts'],
          // jsdom + Chakra renders are slow on a loaded 2-core machine; 5 s is too tight there.
          testTimeout: 20_000,
          ...PURE_FILES,
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'local-stack/**/*.test.ts',
            'supabase/functions/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          // The Edge Functions route with URLPattern, which Deno has and Node 20 lacks.
          setupFiles: ['tests/setup/url-pattern.ts'],
          testTimeout: 20_000,
          ...PURE_FILES,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          environment: 'node',
          include: ['tests/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'tests/load/**', 'tests/e2e/**', 'tests/stack/**'],
          globalSetup: ['tests/setup/stack.ts'],
          setupFiles: ['tests/setup/hold-stack.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          ...FILES_ON_OWN_STACKS,
          sequence: { groupOrder: 1 },
        },
      },
      {
        // The browser tests, on stacks of their own: nothing one project's files change in their
        // stack (plans, rate-limit windows, settings) reaches the other's.
        extends: true,
        test: {
          name: 'browser',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/setup/stack.ts'],
          setupFiles: ['tests/setup/hold-stack.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          ...FILES_ON_OWN_STACKS,
          sequence: { groupOrder: 2 },
          // In CI a browser test that fails is run once more before the run fails: a real
          // browser on a loaded two-core machine now and then misses a frame (each retry is
          // reported as such, and a test that fails twice fails the run).
          retry: process.env.CI ? 1 : 0,
        },
      },
      {
        // `npm run stack` and `npm start` run as in a terminal, each with a stack of its own, and
        // timed to their shutdown bounds: last, one file at a time, with nothing else running.
        extends: true,
        test: {
          name: 'stack',
          environment: 'node',
          include: ['tests/stack/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          sequence: { groupOrder: 3 },
        },
      },
      ...(process.env.LOAD_TESTS === '1'
        ? [
            {
              extends: true as const,
              test: {
                name: 'load',
                environment: 'node' as const,
                include: ['tests/load/**/*.test.ts'],
                // Sized by LOAD_SUBMISSIONS / LOAD_CLIENTS; the full size takes minutes.
                testTimeout: 30 * 60_000,
                hookTimeout: 180_000,
                fileParallelism: false,
              },
            },
          ]
        : []),
    ],
  },
});
