// `npm run check:functions`: type-checks every Edge Function entry with Deno, the runtime they
// deploy to (tsconfig.json leaves supabase/functions out). Entries are found the way the local
// stack finds them (supabase/config.toml, then every supabase/functions/<name>/index.ts), so a new
// function is checked without touching this script.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadProjectConfig, PROJECT_DIR, SUPABASE_DIR } from '../local-stack/config.ts';
import { discoverFunctions } from '../local-stack/functions/discovery.ts';

const functions = [
  ...discoverFunctions({
    supabaseDir: SUPABASE_DIR,
    projectFunctions: loadProjectConfig().functions,
    extraDirs: [],
  }).values(),
].sort((a, b) => a.name.localeCompare(b.name));

if (functions.length === 0) {
  console.error('check:functions: no function entry found under supabase/functions/');
  process.exit(1);
}

const bundled = path.join(PROJECT_DIR, 'node_modules', 'deno', 'deno');
const deno = existsSync(bundled) ? bundled : 'deno';
// Deno fetches `npm:` packages itself: point it at the registry npm is configured with.
const registry = process.env.NPM_CONFIG_REGISTRY ?? process.env.npm_config_registry;
const env = {
  ...process.env,
  NO_COLOR: '1',
  // package.json lists the site's packages, not the functions': Deno must not install them.
  DENO_NO_PACKAGE_JSON: '1',
  ...(registry && { NPM_CONFIG_REGISTRY: registry }),
};

let failed = 0;
for (const fn of functions) {
  const entry = path.relative(PROJECT_DIR, fn.entrypoint);
  console.log(`deno check ${entry}`);
  // From the function's folder, so a deno.json beside it applies as on Supabase. No deno.lock in
  // the project and no node_modules of Deno's own, as the local stack runs functions.
  const result = spawnSync(
    deno,
    ['check', '--quiet', '--no-lock', '--node-modules-dir=none', path.basename(fn.entrypoint)],
    { cwd: path.dirname(fn.entrypoint), stdio: 'inherit', env },
  );
  if (result.error) {
    console.error(`check:functions: could not run deno: ${result.error.message}`);
    process.exit(1);
  }
  if (result.status !== 0) failed++;
}

if (failed > 0) {
  console.error(`check:functions: ${failed} of ${functions.length} function(s) failed`);
  process.exit(1);
}
console.log(`check:functions: ${functions.length} function(s) type-check`);
