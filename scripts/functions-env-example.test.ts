// supabase/functions/.env.example must name every variable the functions read, so a deploy with
// `supabase secrets set --env-file` never misses one; and it must parse as the CLI reads it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseDotenv } from '../local-stack/functions/dotenv.ts';

const functionsDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../supabase/functions',
);
const example = readFileSync(path.join(functionsDir, '.env.example'), 'utf8');

/** Names passed to env('…'), required('…') or Deno.env.get('…') in the functions' modules. */
function variablesRead(): Set<string> {
  const names = new Set<string>();
  const files = readdirSync(functionsDir, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
  );
  for (const file of files) {
    const source = readFileSync(path.join(functionsDir, file), 'utf8');
    for (const m of source.matchAll(/\b(?:env|required|Deno\.env\.get)\(\s*'([A-Z][A-Z0-9_]*)'/g))
      names.add(m[1]);
  }
  return names;
}

describe('supabase/functions/.env.example', () => {
  it('lists every variable the functions read, with an explanation line above each', () => {
    const read = variablesRead();
    expect(read.size).toBeGreaterThan(10);
    const lines = example.split('\n');
    for (const name of read) {
      // Set (`NAME=`) or, for the platform's SUPABASE_* values, named in a comment (`# NAME=`).
      const at = lines.findIndex((line) => new RegExp(`^(# )?${name}=`).test(line));
      expect(at, `${name} is missing`).toBeGreaterThanOrEqual(0);
      if (!name.startsWith('SUPABASE_')) expect(lines[at - 1], name).toMatch(/^# \S/);
    }
  });

  it('sets no SUPABASE_* name (the CLI refuses them) and nothing the functions never read', () => {
    const set = Object.keys(parseDotenv(example));
    expect(set.filter((name) => name.startsWith('SUPABASE_'))).toEqual([]);
    expect(set.filter((name) => !variablesRead().has(name))).toEqual([]);
  });
});
