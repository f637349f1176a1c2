import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProjectConfig } from './config.ts';

const dirs: string[] = [];
function supabaseDir(toml: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'stack-config-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'config.toml'), toml);
  return dir;
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('loadProjectConfig: [functions.*]', () => {
  it('reads verify_jwt, entrypoint and enabled', () => {
    const dir = supabaseDir(
      '[functions.forms]\nverify_jwt = false\nentrypoint = "./functions/forms/main.ts"\n' +
        '[functions.old]\nenabled = false\n',
    );
    expect(loadProjectConfig(dir).functions).toEqual([
      {
        name: 'forms',
        verifyJwt: false,
        entrypoint: path.join(dir, 'functions/forms/main.ts'),
        enabled: true,
      },
      {
        name: 'old',
        verifyJwt: true,
        entrypoint: path.join(dir, 'functions/old/index.ts'),
        enabled: false,
      },
    ]);
  });

  it('refuses the CLI settings the local stack does not implement instead of ignoring them', () => {
    for (const setting of ['import_map = "./import_map.json"', 'static_files = ["./x.html"]']) {
      expect(() => loadProjectConfig(supabaseDir(`[functions.forms]\n${setting}\n`))).toThrow(
        /\[functions\.forms\] (import_map|static_files) is not supported by the local stack/,
      );
    }
  });
});
