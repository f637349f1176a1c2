// Finds the Edge Functions the stack serves: `[functions.*]` of supabase/config.toml, every
// folder of supabase/functions with an index.ts, and extra folders (test fixtures) laid out alike.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import type { FunctionConfig } from '../config.ts';

/** A function plus the folder whose `.env` applies to it. */
export interface ServedFunction extends FunctionConfig {
  functionsDir: string;
}

/** Supabase skips folders such as `_shared`: they hold code shared between functions. */
const isServable = (name: string) => !name.startsWith('_') && !name.startsWith('.');

function scanFolder(
  functionsDir: string,
  configuredByName: Map<string, FunctionConfig>,
): ServedFunction[] {
  if (!existsSync(functionsDir)) return [];
  const found: ServedFunction[] = [];
  for (const entry of readdirSync(functionsDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !isServable(entry.name)) continue;
    const configured = configuredByName.get(entry.name);
    if (configured) continue;
    const entrypoint = path.join(functionsDir, entry.name, 'index.ts');
    if (existsSync(entrypoint))
      found.push({ name: entry.name, verifyJwt: true, entrypoint, functionsDir });
  }
  return found;
}

/**
 * An extra functions folder may carry its own `config.toml` with `[functions.<name>]` tables in
 * supabase/config.toml's format (`verify_jwt`, `entrypoint` relative to that folder).
 */
function readFolderConfig(functionsDir: string): FunctionConfig[] {
  const file = path.join(functionsDir, 'config.toml');
  if (!existsSync(file)) return [];
  const toml = parseToml(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const table = (toml.functions ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(table).map(([name, f]) => ({
    name,
    verifyJwt: f.verify_jwt !== false,
    entrypoint: path.resolve(
      functionsDir,
      typeof f.entrypoint === 'string' ? f.entrypoint : `./${name}/index.ts`,
    ),
  }));
}

/**
 * Lists the functions by name. Later sources win, so a test fixture folder may stand in for a
 * project function of the same name. Read on every request so new folders are picked up live.
 */
export function discoverFunctions(opts: {
  supabaseDir: string;
  projectFunctions: FunctionConfig[];
  extraDirs: string[];
}): Map<string, ServedFunction> {
  const served = new Map<string, ServedFunction>();
  const projectDir = path.join(opts.supabaseDir, 'functions');
  const sources: [string, FunctionConfig[]][] = [
    [projectDir, opts.projectFunctions],
    ...opts.extraDirs.map((dir): [string, FunctionConfig[]] => [dir, readFolderConfig(dir)]),
  ];
  for (const [functionsDir, configured] of sources) {
    const byName = new Map(configured.filter((f) => isServable(f.name)).map((f) => [f.name, f]));
    // A config entry whose file is not written yet is not a function yet (404, not a boot error).
    for (const f of byName.values()) {
      // A disabled function is not served, and its folder is not picked up by the scan either.
      if (f.enabled === false) served.delete(f.name);
      else if (existsSync(f.entrypoint)) served.set(f.name, { ...f, functionsDir });
    }
    for (const f of scanFolder(functionsDir, byName)) served.set(f.name, f);
  }
  return served;
}
