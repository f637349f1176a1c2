import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverFunctions } from './discovery.ts';

const dirs: string[] = [];
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'functions-discovery-'));
  dirs.push(root);
  for (const [file, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), body);
  }
  return root;
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('discoverFunctions', () => {
  it('merges config.toml entries, folders with index.ts and extra folders; skips `_` folders', () => {
    const supabaseDir = tree({
      'functions/forms/index.ts': '',
      'functions/hello/index.ts': '',
      'functions/_shared/index.ts': '',
      'functions/no-entry/readme.md': '',
    });
    const extra = tree({
      'config.toml':
        '[functions.open]\nverify_jwt = false\nentrypoint = "./hello2/main.ts"\n[functions.later]\nverify_jwt = false\n',
      'hello2/main.ts': '',
      'hello/index.ts': '',
    });
    const found = discoverFunctions({
      supabaseDir,
      projectFunctions: [
        {
          name: 'forms',
          verifyJwt: false,
          entrypoint: path.join(supabaseDir, 'functions/forms/index.ts'),
        },
      ],
      extraDirs: [extra],
    });
    expect([...found.keys()].sort()).toEqual(['forms', 'hello', 'open']);
    expect(found.get('forms')).toMatchObject({ verifyJwt: false });
    // A later folder's function of the same name wins; unconfigured folders verify JWTs.
    expect(found.get('hello')).toMatchObject({
      verifyJwt: true,
      entrypoint: path.join(extra, 'hello/index.ts'),
    });
    expect(found.get('open')).toMatchObject({
      verifyJwt: false,
      entrypoint: path.join(extra, 'hello2/main.ts'),
      functionsDir: extra,
    });
  });

  it('serves no function that config.toml disables, even when its folder has an index.ts', () => {
    const supabaseDir = tree({ 'functions/off/index.ts': '', 'functions/on/index.ts': '' });
    const found = discoverFunctions({
      supabaseDir,
      projectFunctions: [
        {
          name: 'off',
          verifyJwt: true,
          enabled: false,
          entrypoint: path.join(supabaseDir, 'functions/off/index.ts'),
        },
      ],
      extraDirs: [],
    });
    expect([...found.keys()]).toEqual(['on']);
  });
});
