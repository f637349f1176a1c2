// The stack a test file runs against. A project's global setup (tests/setup/stack.ts) starts one
// stack for each file it may run at once; before a file's tests are loaded, it takes one no other
// file holds (tests/setup/hold-stack.ts) and gives it back when its tests are done, so files that
// run side by side never share a stack's users, plans, rate-limit windows, tables or mail.
//
// A stack is held by creating a folder (atomic: exactly one creator succeeds) with the holder's
// process id inside; a folder whose process is gone, a file's worker that died, is taken over.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import type { ProvidedStack } from '../setup/stack.ts';

let held: ProvidedStack | undefined;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Takes `stack` if no live process holds it. */
function tryToHold(stack: ProvidedStack): boolean {
  try {
    mkdirSync(stack.claim);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    let holder = NaN;
    try {
      holder = Number(readFileSync(path.join(stack.claim, 'pid'), 'utf8'));
    } catch {
      return false; // just created: its holder has not written its id yet
    }
    if (!Number.isInteger(holder) || alive(holder)) return false;
    rmSync(stack.claim, { recursive: true, force: true });
    return tryToHold(stack);
  }
  writeFileSync(path.join(stack.claim, 'pid'), String(process.pid));
  return true;
}

/** Waits until one of the project's stacks is free and holds it for this file. */
export async function holdStack(timeoutMs = 120_000): Promise<void> {
  const stacks = inject('stacks');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    held = stacks.find(tryToHold);
    if (held) return;
    if (Date.now() > deadline) {
      throw new Error(`no test stack came free in ${timeoutMs / 1000} s (${stacks.length} in all)`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Gives this file's stack back. */
export function releaseStack(): void {
  if (held) rmSync(held.claim, { recursive: true, force: true });
  held = undefined;
}

function own(): ProvidedStack {
  if (!held) {
    throw new Error('no test stack held: run this file in the integration or browser project');
  }
  return held;
}

/** The URLs, keys and ports of this file's stack. */
export const testStack = (): ProvidedStack['stack'] => own().stack;

/** What this file's stack offers (tests/support/target.ts). */
export const testTarget = (): ProvidedStack['target'] => own().target;

/** The folder this file's stack keeps its one production build of the site in. */
export const testSiteDir = (): string => own().siteDir;
