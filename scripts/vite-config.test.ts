// The dev server ignores the local stack's data folder: Postgres files and Deno's package
// downloads change there all the time while the stack runs, and each change reloaded the page.
import { matchesGlob } from 'node:path';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('the dev server', () => {
  it("does not watch .stack-data, and still watches the site's sources", async () => {
    const config = await resolveConfig(
      { root, configFile: path.join(root, 'vite.config.ts'), logLevel: 'silent' },
      'serve',
      'development',
    );
    const ignored = [config.server.watch?.ignored ?? []].flat();
    const ignores = (file: string) =>
      ignored.some((rule) =>
        typeof rule === 'string'
          ? matchesGlob(file, rule)
          : rule instanceof RegExp && rule.test(file),
      );
    expect(ignores(path.join(root, '.stack-data/deno/npm/registry.npmjs.org/x/index.js'))).toBe(
      true,
    );
    expect(ignores(path.join(root, '.stack-data/postgres/base/1/1259'))).toBe(true);
    expect(ignores(path.join(root, 'src/main.tsx'))).toBe(false);
  });
});
