// Parses dotenv files (supabase/functions/.env) the way the Supabase CLI's --env-file reads them.
import { readFileSync } from 'node:fs';

/** Parses `KEY=value` lines: `#` comments, optional `export `, single/double quotes, `\n` in "…". */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(lines[i]);
    if (!m) continue;
    const key = m[1];
    let value = m[2];
    const quote = value[0];
    if (quote === '"' || quote === "'" || quote === '`') {
      // A quoted value may span lines until the closing quote.
      let rest = value.slice(1);
      while (!rest.includes(quote) && i + 1 < lines.length) rest += '\n' + lines[++i];
      const end = rest.indexOf(quote);
      value = end >= 0 ? rest.slice(0, end) : rest;
      if (quote === '"')
        value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r').replace(/\\t/g, '\t');
    } else {
      value = value.replace(/\s+#.*$/, '').trim();
    }
    out[key] = value;
  }
  return out;
}

/** Reads a dotenv file; a missing file is an empty environment. */
export function readDotenv(file: string): Record<string, string> {
  try {
    return parseDotenv(readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
}
