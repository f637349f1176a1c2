// The stack a test file runs against. A project's global setup (tests/setup/stack.ts) starts one
// stack for each file it may run at once; a file takes the one its worker holds. Vitest numbers
// the workers that run at once from 1 (VITEST_POOL_ID) and never gives one number to two of them,
// so files that run side by side never share a stack's users, plans, rate-limit windows or mail.
import { inject } from 'vitest';
import type { ProvidedStack } from '../setup/stack.ts';

function held(): ProvidedStack {
  const stacks = inject('stacks');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  const stack = stacks[(worker - 1) % stacks.length];
  if (!stack)
    throw new Error('no test stack provided: run this file in the integration or browser project');
  return stack;
}

/** The URLs, keys and ports of this file's stack. */
export const testStack = (): ProvidedStack['stack'] => held().stack;

/** What this file's stack offers (tests/support/target.ts). */
export const testTarget = (): ProvidedStack['target'] => held().target;

/** The folder this file's stack keeps its one production build of the site in. */
export const testSiteDir = (): string => held().siteDir;
