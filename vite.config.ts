// Vite config: the React app; a build-time check of the VITE_* settings (a production build fails
// on a missing value or a key that must not ship, with the browser's own message); and the
// dev-server rewrite of the public form endpoint `/api/forms/{id}` to the `forms` Edge Function,
// set up like the production rewrite the README describes.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, loadEnv, type AliasOptions, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { EnvError, parseEnv } from './src/config/env-rules.ts';
import { LOCAL_FORMS_PROXY_SECRET, PROXY_SECRET_HEADER } from './local-stack/forms-proxy.ts';

/**
 * `#chakra-theme/…`: one module of Chakra's default theme (src/app/theme.ts says why it does not
 * import '@chakra-ui/react/theme'). Chakra's package exports do not name these files, hence the
 * alias; tsconfig.json maps the same name to their types, and vitest.config.ts reuses this.
 */
export const chakraThemeAlias: AliasOptions = [
  {
    find: /^#chakra-theme\/(.*)$/,
    replacement: path.join(
      path.dirname(fileURLToPath(import.meta.url)),
      'node_modules/@chakra-ui/react/dist/esm/theme/$1.js',
    ),
  },
];

const functionsUrl = `${process.env.VITE_SUPABASE_URL ?? 'http://127.0.0.1:54321'}/functions/v1`;

/**
 * The VITE_* settings, checked by src/config/env-rules.ts when a build, the dev server or the tests
 * start, and handed to the page already checked and normalised as `__SITE_ENV__` (read by
 * src/config/env.ts): a bad build fails before it is deployed, with the browser's own message, and
 * the browser carries none of the checks.
 */
export function siteEnv(): Plugin {
  return {
    name: 'tinyback:site-env',
    config(config, { mode, command }) {
      const envDir = typeof config.envDir === 'string' ? config.envDir : (config.root ?? '.');
      const raw = { ...loadEnv(mode, envDir, 'VITE_'), MODE: mode, DEV: command === 'serve' };
      try {
        return { define: { __SITE_ENV__: JSON.stringify(parseEnv(raw)) } };
      } catch (error) {
        if (!(error instanceof EnvError)) throw error;
        throw new Error(
          `${error.message}\nSet VITE_SUPABASE_URL and VITE_SUPABASE_ANON_KEY for the build (see README, "The site").`,
        );
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), siteEnv()],
  resolve: { alias: chakraThemeAlias },
  build: {
    // .vite/manifest.json: which chunks each page loads, read by the bundle budget test
    // (tests/build/bundle-budget.test.ts) and the Lighthouse benchmark (scripts/bundle-size.ts).
    manifest: true,
    rolldownOptions: {
      // @emotion/react imports these two CommonJS packages for their side effects only, so the
      // bundle kept them (1 KB gzipped) though nothing calls them; they have none.
      treeshake: {
        moduleSideEffects: [
          { test: /node_modules\/(hoist-non-react-statics|react-is)\//, sideEffects: false },
        ],
      },
    },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    watch: {
      // The local stack's data folder (Postgres files, Deno's package cache) changes all the time
      // while the stack runs; watching it would reload the page for nothing.
      ignored: ['**/.stack-data/**'],
    },
    proxy: {
      '/api/forms': {
        target: functionsUrl,
        changeOrigin: true,
        // As on a production host: append the visitor's address to X-Forwarded-For and prove to
        // the function that this proxy did (FORMS_PROXY_SECRET; the local stack's by default).
        xfwd: true,
        headers: {
          [PROXY_SECRET_HEADER]: process.env.FORMS_PROXY_SECRET ?? LOCAL_FORMS_PROXY_SECRET,
        },
        rewrite: (path) => path.replace(/^\/api\/forms/, '/forms'),
      },
    },
  },
  preview: { host: '127.0.0.1', port: 5173, strictPort: true },
});
