// supabase/functions/forms/uploads/detect.ts under real Deno (its npm: import is Deno's): sample files' first bytes, named
// misleadingly, are told by their content; what no magic number names is left to kinds.ts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { denoBinary } from '../../local-stack/functions/index.ts';
import { UPLOADS } from '../../supabase/functions/_shared/limits.ts';
import { DEFAULT_KINDS, judgeFile } from '../../supabase/functions/forms/uploads/kinds.ts';

const DETECT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../supabase/functions/forms/uploads/detect.ts',
);
const dir = mkdtempSync(path.join(tmpdir(), 'uploads-detect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
/** A minimal zip whose first entry is `name` (what file-type reads to tell Office files apart). */
function zipStarting(name: string, content = ''): number[] {
  const header = [0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  const sizes = [0, 0, 0, 0, content.length, 0, 0, 0, content.length, 0, 0, 0];
  return [...header, ...sizes, name.length, 0, 0, 0, ...ascii(name), ...ascii(content)];
}

const SAMPLES: Record<string, number[]> = {
  'photo.pdf': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, ...ascii('IHDR')],
  'scan.png': ascii('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n'),
  'invoice.pdf': [0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff],
  'letter.docx': zipStarting(
    '[Content_Types].xml',
    '<Types><Override PartName="/word/document.xml"/></Types>',
  ),
  'notes.txt': ascii('name,email\nAda,ada@example.test\n'),
};

/** Runs detect.ts on each sample's bytes under Deno; answers by sample name. */
function detectUnderDeno(): Record<string, { mime: string; ext: string } | null> {
  const script = path.join(dir, 'run.ts');
  writeFileSync(
    script,
    `import { detectType } from ${JSON.stringify(`file://${DETECT}`)};
const samples = ${JSON.stringify(SAMPLES)};
const out: Record<string, unknown> = {};
for (const [name, bytes] of Object.entries(samples)) {
  out[name] = (await detectType(new Uint8Array(bytes as number[]))) ?? null;
}
console.log(JSON.stringify(out));`,
  );
  const stdout = execFileSync(
    denoBinary(),
    ['run', '--allow-all', '--no-lock', '--node-modules-dir=none', script],
    { env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 120_000 },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as Record<
    string,
    { mime: string; ext: string } | null
  >;
}

describe('detectType (real Deno)', () => {
  it('tells files by their content, whatever their names say', { timeout: 150_000 }, () => {
    const found = detectUnderDeno();
    expect(found['photo.pdf']).toEqual({ mime: 'image/png', ext: 'png' });
    expect(found['scan.png']).toEqual({ mime: 'application/pdf', ext: 'pdf' });
    expect(found['invoice.pdf']).toEqual({ mime: 'application/x-msdownload', ext: 'exe' });
    expect(found['notes.txt']).toBeNull();

    // And what that means for a form with the default kinds: the program is refused.
    const judged = (name: string) =>
      judgeFile(
        found[name] ?? undefined,
        new Uint8Array(SAMPLES[name]!.slice(0, UPLOADS.sniffBytes)),
        DEFAULT_KINDS,
      );
    expect(judged('photo.pdf')).toMatchObject({ ok: true, kind: 'image' });
    expect(judged('invoice.pdf')).toEqual({ ok: false, mime: 'application/x-msdownload' });
    expect(judged('notes.txt')).toMatchObject({ ok: true, kind: 'text' });
    expect(found['letter.docx']?.ext).toMatch(/^(docx|zip)$/);
  });
});
