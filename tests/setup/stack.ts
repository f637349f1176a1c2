// Vitest global setup for integration tests: local stacks on free ports, in temporary folders, so
// they never collide with a running `npm start`. A project gets one stack for each file it may run
// at once (its maxWorkers); each file holds one while it runs (tests/setup/hold-stack.ts), so two
// files never share one. Each stack also names the folder its browser tests share one
// production build of the site in (built by the first file that needs it, see
// tests/e2e/site-server.ts), so files that never open a browser pay nothing for it.
//
// With VERIFY_TARGET=remote (set by `npm run verify`, scripts/verify.ts) it starts nothing: it
// provides the same shape for the deployment named in the environment, and `target` says which
// optional checks that deployment supports (tests/support/target.ts skips the others).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePorts, startStack, type RunningStack } from '../../local-stack/stack.ts';
import type { StackSettings } from '../../local-stack/config.ts';
import { LOCAL_FORMS_PROXY_SECRET } from '../../local-stack/forms-proxy.ts';
import { isRemoteTarget } from '../../scripts/verify-env.ts';
import { startNewAccountsUnlimited } from '../support/plans.ts';
import { provideRemoteTarget, removeRemoteTestPlan, removeRemoteTestRows } from './remote.ts';

/** What the suites may rely on beyond `stack`: the local stack, or a deployment under verification. */
export interface TargetInfo {
  kind: 'local' | 'remote';
  /** The forms function's SITE_URL; null when the deployment's is not known. */
  siteUrl: string | null;
  /** The forms function's FORMS_PROXY_SECRET; null when unknown or unset. */
  proxySecret: string | null;
  /** The secret that signs the project's JWTs; null when unknown (tokens cannot be minted). */
  jwtSecret: string | null;
  /** Does `stack.mailWebUrl` lead to a catcher of every e-mail the functions send? */
  mail: boolean;
  /** The local stack's Storage folder (objects' files under `objects/`); null for a deployment. */
  storageDir: string | null;
}

/** One stack as the suites see it (a file holds one while it runs: tests/support/stack.ts). */
export interface ProvidedStack {
  stack: Pick<
    StackSettings,
    'apiUrl' | 'dbUrl' | 'mailWebUrl' | 'anonKey' | 'serviceRoleKey' | 'jwtSecret' | 'ports'
  >;
  /** Where this stack's production build of the site lives (absent until a test builds it). */
  siteDir: string;
  target: TargetInfo;
  /** The folder a file creates to hold this stack (tests/support/stack.ts). */
  claim: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** One per file the project runs at once. */
    stacks: ProvidedStack[];
  }
}

/**
 * Starts what `project` runs against and returns how to stop it. Each project that names this
 * file (integration and browser) gets stacks of its own, so nothing is kept at module level.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (isRemoteTarget(process.env)) {
    const claimRoot = await mkdtemp(path.join(tmpdir(), 'tinyback-verify-'));
    const remoteDbUrl = await provideRemoteTarget(
      project,
      process.env,
      path.join(claimRoot, 'held'),
    );
    return async () => {
      await removeRemoteTestRows(remoteDbUrl);
      await removeRemoteTestPlan(remoteDbUrl);
      await rm(claimRoot, { recursive: true, force: true });
    };
  }
  const count = Math.max(1, Number(project.config.maxWorkers) || 1);
  // All ports in one call, so two stacks starting side by side cannot be handed the same one.
  const ports = await freePorts(4 * count);
  const started = await Promise.allSettled(
    Array.from({ length: count }, (_, i) => startTestStack(ports.slice(4 * i, 4 * i + 4))),
  );
  const stops = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value.stop] : []));
  const stopAll = async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  project.provide(
    'stacks',
    started.map((s) => (s as PromiseFulfilledResult<StartedStack>).value.provided),
  );
  return stopAll;
}

interface StartedStack {
  provided: ProvidedStack;
  stop: () => Promise<void>;
}

async function startTestStack([api, db, mailWeb, smtp]: number[]): Promise<StartedStack> {
  let stack: RunningStack | undefined;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tinyback-test-stack-'));
  const siteRoot = await mkdtemp(path.join(tmpdir(), 'tinyback-test-site-'));
  const stop = async () => {
    await stack?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(siteRoot, { recursive: true, force: true });
  };
  try {
    stack = await startStack({
      dataDir,
      ports: { api: api!, db: db!, mailWeb: mailWeb!, smtp: smtp! },
      // The suites sign up, confirm and sign in hundreds of users from 127.0.0.1, far beyond
      // config.toml's per-address budgets (30 sign-ups, 150 token grants, 30 verifications per 5
      // minutes). The tests of the limits run against an Auth service built from config.toml
      // unchanged (auth-limits.test.ts).
      authRateLimits: {
        signInSignUps: 1_000_000,
        tokenRefresh: 1_000_000,
        tokenVerifications: 1_000_000,
      },
      log: (service, message) => {
        if (process.env.STACK_LOG) console.log(`[${service}] ${message}`);
      },
    });
    // The suites make many forms and posts per account; the quota tests choose their own plans
    // (tests/support/plans.ts).
    await startNewAccountsUnlimited(stack.settings.dbUrl);
    const s = stack.settings;
    return {
      stop,
      provided: {
        siteDir: path.join(siteRoot, 'dist'),
        claim: path.join(siteRoot, 'held'),
        stack: {
          apiUrl: s.apiUrl,
          dbUrl: s.dbUrl,
          mailWebUrl: s.mailWebUrl,
          anonKey: s.anonKey,
          serviceRoleKey: s.serviceRoleKey,
          jwtSecret: s.jwtSecret,
          ports: s.ports,
        },
        target: {
          kind: 'local',
          siteUrl: s.project.auth.siteUrl,
          proxySecret: LOCAL_FORMS_PROXY_SECRET,
          jwtSecret: s.jwtSecret,
          mail: true,
          storageDir: path.join(dataDir, 'storage'),
        },
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
