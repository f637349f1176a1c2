// What every benchmark reports: the machine it ran on, and its own marked section of
// docs/PERFORMANCE.md, rewritten with each run's figures (the rest of the page is left alone).
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** CPU model × count, memory and Node version, for the figures' context. */
export function machineSummary(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

/**
 * Replaces the section between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`, or appends it
 * under `heading` when the page has none yet; `command` is the one that measured it.
 */
export async function writeSection(
  name: string,
  heading: string,
  machine: string,
  lines: string[],
  notes: string[] = [],
  command = `npm run bench:${name}`,
): Promise<void> {
  const file = path.resolve('docs/PERFORMANCE.md');
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const section = [
    start,
    `Measured ${new Date().toISOString().slice(0, 10)} by \`${command}\` on ${machine}.`,
    ...notes,
    '',
    ...lines,
    end,
  ].join('\n');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    text = '# Performance\n\nFigures written by the benchmark scripts under `bench/`.\n';
  }
  const at = text.indexOf(start);
  const next =
    at === -1
      ? `${text.trimEnd()}\n\n## ${heading}\n\n${section}\n`
      : text.slice(0, at) + section + text.slice(text.indexOf(end) + end.length);
  await writeFile(file, next);
  console.log(`Wrote ${path.relative(process.cwd(), file)}.`);
}
