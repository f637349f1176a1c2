// Vitest global setup for integration tests: one local stack per run, on free ports, in a
// temporary folder, so it never collides with a running `npm start`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePorts, startStack, type RunningStack } from '../../local-stack/stack.ts';
import type { StackSettings } from '../../local-stack/config.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: Pick<
      StackSettings,
      'apiUrl' | 'dbUrl' | 'mailWebUrl' | 'anonKey' | 'serviceRoleKey' | 'jwtSecret' | 'ports'
    >;
  }
}

let stack: RunningStack | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject) {
  dataDir = await mkdtemp(path.join(tmpdir(), 'tinyback-test-stack-'));
  const [api, db, mailWeb, smtp] = await freePorts(4);
  stack = await startStack({
    dataDir,
    ports: { api, db, mailWeb, smtp },
    log: (service, message) => {
      if (process.env.STACK_LOG) console.log(`[${service}] ${message}`);
    },
  });
  const s = stack.settings;
  project.provide('stack', {
    apiUrl: s.apiUrl,
    dbUrl: s.dbUrl,
    mailWebUrl: s.mailWebUrl,
    anonKey: s.anonKey,
    serviceRoleKey: s.serviceRoleKey,
    jwtSecret: s.jwtSecret,
    ports: s.ports,
  });
}

export async function teardown() {
  await stack?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
