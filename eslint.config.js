// Lint rules: typescript-eslint recommended + React hooks, and the architecture's rules from
// docs/ARCHITECTURE.md (layers, one supabase-js importer, one reader of import.meta.env, kebab-case
// names). Formatting is left to Prettier. scripts/layer-rules.test.ts proves each rule still fires.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import checkFile from 'eslint-plugin-check-file';
import globals from 'globals';

const root = import.meta.dirname;

/** Sub-folders of a project folder: every feature, every Edge Function (new ones are covered too). */
const foldersIn = (dir) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const SHARED = ['src/components', 'src/lib', 'src/config', 'src/hooks', 'src/utils'];
const APP = ['src/app', 'src/main.tsx'];
const OUTSIDE_SRC = ['local-stack', 'tests', 'scripts', 'bench'];

const layerZones = [
  {
    target: SHARED,
    from: ['src/features', ...APP],
    message:
      'Shared code (src/components, src/lib, src/config) never imports a feature or src/app: move the piece into shared code, or let src/app pass it in as a prop.',
  },
  {
    target: 'src/features',
    from: APP,
    message:
      'A feature never imports src/app: take what it needs from shared code or as props from the app layer.',
  },
  ...foldersIn('src/features').map((feature) => ({
    target: `src/features/${feature}`,
    from: 'src/features',
    except: [`./${feature}`],
    message: `A feature never imports another feature: move the shared piece into src/components, src/lib or src/config, or compose both features in src/app.`,
  })),
  {
    target: 'src',
    from: 'supabase',
    // Exception: docs and snippet read the endpoint's facts from its own pure modules (one source).
    except: [
      './functions/_shared/limits.ts',
      './functions/_shared/special-fields.ts',
      './functions/forms/errors.ts',
      './functions/forms/refusal-page.ts',
      './functions/forms-api/errors.ts',
    ],
    message:
      'The site does not import supabase/: only supabase/functions/_shared/limits.ts (and special-fields.ts, which it re-exports), forms/errors.ts, forms/refusal-page.ts and forms-api/errors.ts are shared with it (see docs/ARCHITECTURE.md).',
  },
  {
    target: 'src',
    from: OUTSIDE_SRC,
    message:
      'The site imports only from src/: local-stack, tests, scripts and bench are development tools, never part of the bundle.',
  },
  {
    target: 'supabase/functions',
    from: ['src', ...OUTSIDE_SRC],
    message:
      'An Edge Function deploys on its own: import only from supabase/functions (shared code in _shared/) and npm:/jsr: packages.',
  },
  ...foldersIn('supabase/functions').map((folder) => ({
    target: `supabase/functions/${folder}`,
    from: 'supabase/functions',
    except: [...new Set([`./${folder}`, './_shared'])],
    message:
      'An Edge Function imports only its own folder and _shared/: move code used by several functions into supabase/functions/_shared/.',
  })),
];

const KEBAB_MESSAGE =
  'File and folder names are kebab-case: rename "{{ target }}" (e.g. message-list.tsx, use-forms.ts).';

/** Packages only some function modules may import (used by the functions' import rules below). */
const FUNCTION_IMPORT_RULES = {
  'supabase-js': {
    regex: '^(npm:|jsr:)?@supabase/',
    message:
      "Only a function's index.ts and supabase-store.ts import supabase-js: pass the client or a store into this module instead.",
  },
  postgres: {
    regex: '^(npm:)?(pg|postgres)(@|/|$)',
    message:
      'Only supabase/functions/_shared/database.ts connects to Postgres: pass its client (an `rpc`) into this module instead.',
  },
};

export default tseslint.config(
  // public/tb.js is the analytics tracker as built (minified) from its TypeScript source.
  {
    ignores: ['dist', 'node_modules', '.stack-data', 'test-artifacts', 'coverage', 'public/tb.js'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['supabase/functions/**/*.ts'],
    languageOptions: { globals: { Deno: 'readonly' } },
  },

  // Layers: shared → features → app, a feature never imports another, the site stays in src/ and
  // an Edge Function in supabase/functions/.
  {
    files: ['src/**/*.{ts,tsx}', 'supabase/functions/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.jsx', '.json'] }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: layerZones }],
    },
  },

  // Only src/lib/supabase.ts imports supabase-js in the site; types are free (erased from the
  // bundle). Tests and their helpers (src/components/testing/) never reach the bundle.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/lib/supabase.ts', 'src/**/*.test.{ts,tsx}', 'src/components/testing/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@supabase/*'],
              allowTypeImports: true,
              message:
                'Only src/lib/supabase.ts imports supabase-js: use the `supabase` client from src/lib/supabase.ts, or `import type` for its types.',
            },
          ],
        },
      ],
    },
  },
  // In a function, only its entry (index.ts) and its store module talk to supabase-js, and only
  // _shared/database.ts opens Postgres connections; the pure modules take what they need as
  // arguments, so unit tests run them without a database.
  ...[
    {
      files: ['supabase/functions/**/*.ts'],
      ignores: [
        'supabase/functions/*/index.ts',
        'supabase/functions/*/supabase-store.ts',
        'supabase/functions/_shared/database.ts',
        'supabase/functions/**/*.test.ts',
      ],
      patterns: ['supabase-js', 'postgres'],
    },
    // Unit tests run on Node and may use its pg (sql-call.test.ts checks the driver's quoting).
    { files: ['supabase/functions/**/*.test.ts'], patterns: ['supabase-js'] },
    {
      files: ['supabase/functions/*/index.ts', 'supabase/functions/*/supabase-store.ts'],
      patterns: ['postgres'],
    },
    { files: ['supabase/functions/_shared/database.ts'], patterns: ['supabase-js'] },
  ].map(({ files, ignores = [], patterns }) => ({
    files,
    ignores,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: patterns.map((name) => FUNCTION_IMPORT_RULES[name]) },
      ],
    },
  })),

  // Only src/config/env.ts reads import.meta.env (validated once, typed for everyone else).
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/config/env.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          "MemberExpression[object.type='MetaProperty'][property.name='env']",
          "MemberExpression[object.type='MetaProperty'][property.value='env']",
          "VariableDeclarator[init.type='MetaProperty'] > ObjectPattern > Property[key.name='env']",
        ].map((selector) => ({
          selector,
          message:
            'Only src/config/env.ts reads import.meta.env: import `env` from src/config/env.ts (add and validate new settings there).',
        })),
      ],
    },
  },

  // kebab-case file and folder names (test and config suffixes such as .test.ts are ignored).
  {
    files: [
      'src/**/*.{ts,tsx}',
      'supabase/functions/**/*.ts',
      'local-stack/**/*.ts',
      'tests/**/*.ts',
      'scripts/**/*.ts',
    ],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        { '**/*.{ts,tsx}': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true, errorMessage: KEBAB_MESSAGE },
      ],
      'check-file/folder-naming-convention': [
        'error',
        {
          'src/**/': 'KEBAB_CASE',
          'supabase/**/': 'KEBAB_CASE',
          'local-stack/**/': 'KEBAB_CASE',
          'tests/**/': 'KEBAB_CASE',
          'scripts/**/': 'KEBAB_CASE',
        },
        // Supabase's own name for code shared between functions.
        { ignoreWords: ['_shared'], errorMessage: KEBAB_MESSAGE },
      ],
    },
  },
);
