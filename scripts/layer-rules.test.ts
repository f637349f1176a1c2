// Proves the architecture rules of eslint.config.js still fire: for each rule a deliberately broken
// file (linted as text at a virtual path, never written to the tree) must be reported with the
// rule's own message, and its correct counterpart must lint clean.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** `rule: message` of every problem ESLint reports for `code` at the project-relative `file`. */
async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

interface Case {
  rule: string;
  /** A file that breaks the rule: [path, code]. */
  bad: [string, string];
  /** The same kind of file that keeps it. */
  good: [string, string];
  /** Part of the message that tells what to do instead. */
  says: string;
}

// Imports point at files that exist (the resolver must find them), from files that do not.
const cases: Record<string, Case> = {
  'a feature never imports another feature': {
    rule: 'import-x/no-restricted-paths',
    bad: ['src/features/docs/broken.ts', "export { filterPosts } from '../blog/filter-posts';"],
    good: ['src/features/blog/fine.ts', "export { filterPosts } from './filter-posts';"],
    says: 'A feature never imports another feature: move the shared piece into src/components',
  },
  'a feature never imports the app layer': {
    rule: 'import-x/no-restricted-paths',
    bad: ['src/features/docs/broken.ts', "export { router } from '../../app/router';"],
    good: ['src/features/docs/fine.ts', "export { paths } from '../../config/paths';"],
    says: 'A feature never imports src/app',
  },
  'shared code never imports a feature': {
    rule: 'import-x/no-restricted-paths',
    bad: ['src/components/broken.ts', "export * from '../features/blog';"],
    good: ['src/components/fine.ts', "export * from '../config/site';"],
    says: 'Shared code (src/components, src/lib, src/config) never imports a feature or src/app',
  },
  'shared code never imports the app layer': {
    rule: 'import-x/no-restricted-paths',
    bad: ['src/lib/broken.ts', "export * from '../app/theme';"],
    good: ['src/lib/fine.ts', "export * from './signup-prefill';"],
    says: 'Shared code (src/components, src/lib, src/config) never imports a feature or src/app',
  },
  'the site does not import the functions beyond their shared facts': {
    rule: 'import-x/no-restricted-paths',
    bad: [
      'src/features/docs/broken.ts',
      "export * from '../../../supabase/functions/forms/handler.ts';",
    ],
    good: [
      'src/features/docs/fine.ts',
      "export * from '../../../supabase/functions/_shared/limits.ts';",
    ],
    says: 'The site does not import supabase/',
  },
  'the site does not import development tools': {
    rule: 'import-x/no-restricted-paths',
    bad: ['src/config/broken.ts', "export * from '../../local-stack/config.ts';"],
    good: ['src/config/fine.ts', "export * from './paths';"],
    says: 'The site imports only from src/',
  },
  'an Edge Function does not import the site': {
    rule: 'import-x/no-restricted-paths',
    bad: ['supabase/functions/forms/broken.ts', "export * from '../../../src/config/site.ts';"],
    good: ['supabase/functions/forms/fine.ts', "export * from '../_shared/limits.ts';"],
    says: 'An Edge Function deploys on its own',
  },
  "_shared never imports a function's own modules": {
    rule: 'import-x/no-restricted-paths',
    bad: ['supabase/functions/_shared/broken.ts', "export * from '../forms/text.ts';"],
    good: ['supabase/functions/forms/fine.ts', "export * from './text.ts';"],
    says: 'move code used by several functions into supabase/functions/_shared/',
  },
  'only src/lib/supabase.ts imports supabase-js values': {
    rule: '@typescript-eslint/no-restricted-imports',
    bad: [
      'src/features/blog/broken.ts',
      "import { createClient } from '@supabase/supabase-js';\nexport const c = createClient('u', 'k');",
    ],
    good: [
      'src/features/blog/fine.ts',
      "import type { User } from '@supabase/supabase-js';\nexport type Owner = User;",
    ],
    says: 'Only src/lib/supabase.ts imports supabase-js: use the `supabase` client',
  },
  "only a function's entry and store import supabase-js": {
    rule: '@typescript-eslint/no-restricted-imports',
    bad: [
      'supabase/functions/forms/broken.ts',
      "import { createClient } from 'npm:@supabase/supabase-js@2.109.0';\nexport const c = createClient;",
    ],
    good: [
      'supabase/functions/forms/index.ts',
      "import { createClient } from 'npm:@supabase/supabase-js@2.109.0';\nexport const c = createClient;",
    ],
    says: "Only a function's index.ts and supabase-store.ts import supabase-js",
  },
  'only src/config/env.ts reads import.meta.env': {
    rule: 'no-restricted-syntax',
    bad: ['src/features/home/broken.ts', 'export const url = import.meta.env.VITE_SUPABASE_URL;'],
    good: ['src/config/env.ts', 'export const url = import.meta.env.VITE_SUPABASE_URL;'],
    says: 'Only src/config/env.ts reads import.meta.env: import `env` from src/config/env.ts',
  },
  'file names are kebab-case': {
    rule: 'check-file/filename-naming-convention',
    bad: ['src/features/home/HeroBanner.tsx', 'export const banner = 1;'],
    good: ['src/features/home/hero-banner.test.tsx', 'export const banner = 1;'],
    says: 'File and folder names are kebab-case: rename "HeroBanner.tsx"',
  },
  'folder names are kebab-case': {
    rule: 'check-file/folder-naming-convention',
    bad: ['local-stack/restApi/routes.ts', 'export const routes = 1;'],
    good: ['local-stack/rest-api/routes.ts', 'export const routes = 1;'],
    says: 'File and folder names are kebab-case: rename "restApi"',
  },
};

describe('architecture lint rules', () => {
  for (const [name, { rule, bad, good, says }] of Object.entries(cases)) {
    it(`${name}: reports the broken import and passes the correct one`, async () => {
      const reported = await problems(...bad);
      expect(reported).toHaveLength(1);
      expect(reported[0]).toContain(`${rule}: `);
      expect(reported[0]).toContain(says);
      expect(await problems(...good)).toEqual([]);
    });
  }

  it('allows type-only supabase-js imports and value imports in tests and test doubles', async () => {
    const valueImport =
      "import { AuthApiError } from '@supabase/supabase-js';\nexport const E = AuthApiError;";
    expect(await problems('src/features/auth/broken.test.ts', valueImport)).toEqual([]);
    expect(await problems('src/components/testing/fake.ts', valueImport)).toEqual([]);
    expect(await problems('src/lib/supabase.ts', valueImport)).toEqual([]);
  });

  it('guards each feature folder, in both directions', async () => {
    // The zones are built per feature folder; the reverse of the first case must fire too.
    const reported = await problems('src/features/blog/broken.ts', "export * from '../docs';");
    expect(reported.join('\n')).toContain('A feature never imports another feature');
  });
});
