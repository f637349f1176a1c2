// supabase/functions/forms/uploads/stream.ts under real Deno: multipart posts read as a stream,
// files handed on while they arrive, every limit answered with the field and the limit, and a
// submission's files never held in memory.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { denoBinary } from '../../local-stack/functions/index.ts';

const STREAM = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../supabase/functions/forms/uploads/stream.ts',
);
const dir = mkdtempSync(path.join(tmpdir(), 'uploads-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Each case posts a FormData body through readMultipartStream with a receiver that reads the
// file to its end (counting bytes and hashing them, as an upload to Storage would read it) and
// prints what came out. Files are made of a repeated byte, built as many small Blob parts so the
// script itself never holds one whole either.
const SCRIPT = `
import { readMultipartStream } from ${JSON.stringify(`file://${STREAM}`)};
const MiB = 1024 * 1024;
const limits = { maxFiles: 3, maxFileBytes: 5 * MiB, maxTotalBytes: 8 * MiB, maxFields: 10,
  maxFieldBytes: 1000, headBytes: 4100 };
const file = (bytes, fill) => new Blob(Array.from({ length: Math.ceil(bytes / MiB) },
  (_, i) => new Uint8Array(Math.min(MiB, bytes - i * MiB)).fill(fill)));
async function post(parts, overrides = {}) {
  const form = new FormData();
  for (const [name, value, filename] of parts) form.append(name, value, filename);
  const req = new Request('http://local/', { method: 'POST', body: form });
  let peak = 0;
  const outcome = await readMultipartStream(req.body, req.headers.get('content-type'),
    { ...limits, ...overrides }, async (f) => {
      let size = 0;
      const digest = new Uint8Array(1);
      for await (const chunk of f.body) {
        size += chunk.length;
        for (const b of chunk) digest[0] ^= b;
        peak = Math.max(peak, Deno.memoryUsage().rss);
      }
      return { field: f.field, filename: f.filename, size, head: f.head.length, xor: digest[0] };
    });
  return { ...outcome, cause: outcome.cause ? String(outcome.cause) : undefined, peakMiB: Math.round(peak / MiB) };
}
const out = {};
out.ok = await post([['name', 'Ada'], ['cv', file(3 * MiB + 5, 7), 'cv.pdf'], ['note', 'hi'],
  ['photo', file(10, 1), 'p.png']]);
out.fileTooLarge = await post([['name', 'Ada'], ['cv', file(5 * MiB + 1, 7), 'cv.pdf']]);
out.totalTooLarge = await post([['a', file(4 * MiB, 1), 'a'], ['b', file(4 * MiB + 1, 2), 'b']]);
out.tooMany = await post([['a', file(1, 1), 'a'], ['b', file(1, 1), 'b'], ['c', file(1, 1), 'c'],
  ['d', file(1, 1), 'd']]);
out.malformed = await readMultipartStream(new Blob(['--x\\r\\nnot a header\\r\\n']).stream(),
  'multipart/form-data; boundary=x', limits, async () => 'never');
// A body made while it is read (as a client's upload arrives), so nothing holds it whole.
function generated(files) {
  const enc = new TextEncoder();
  const boundary = 'gen-boundary';
  const chunk = (fill) => new Uint8Array(256 * 1024).fill(fill);
  async function* parts() {
    for (const [name, bytes, fill] of files) {
      yield enc.encode('--' + boundary + '\\r\\nContent-Disposition: form-data; name="' + name +
        '"; filename="' + name + '.bin"\\r\\nContent-Type: application/octet-stream\\r\\n\\r\\n');
      for (let left = bytes; left > 0; left -= 256 * 1024) {
        const c = chunk(fill);
        yield left >= c.length ? c : c.subarray(0, left);
      }
      yield enc.encode('\\r\\n');
    }
    yield enc.encode('--' + boundary + '--\\r\\n');
  }
  const it = parts();
  return { type: 'multipart/form-data; boundary=' + boundary, body: new ReadableStream({
    async pull(c) { const n = await it.next(); n.done ? c.close() : c.enqueue(n.value); } }) };
}
async function measure(files) {
  const before = Deno.memoryUsage().rss;
  let peak = before;
  const { type, body } = generated(files);
  const outcome = await readMultipartStream(body, type,
    { ...limits, maxFiles: 5, maxFileBytes: 64 * MiB, maxTotalBytes: 300 * MiB }, async (f) => {
      let size = 0;
      for await (const c of f.body) { size += c.length; peak = Math.max(peak, Deno.memoryUsage().rss); }
      return { field: f.field, filename: f.filename, size, head: f.head.length, xor: 0 };
    });
  return { ...outcome, riseMiB: Math.round((peak - before) / MiB) };
}
out.big = await measure([['a', 60 * MiB, 3], ['b', 60 * MiB, 4]]);
out.bigger = await measure([['a', 60 * MiB, 3], ['b', 60 * MiB, 4], ['c', 60 * MiB, 5],
  ['d', 60 * MiB, 6]]);
console.log(JSON.stringify(out));
`;

type Outcome = {
  ok: boolean;
  fields?: [string, string][];
  files: { field: string; filename: string; size: number; head: number; xor: number }[];
  refusal?: { status: number; code: string; field?: string; limit?: number } | null;
  peakMiB?: number;
};
let results: Record<string, Outcome>;

beforeAll(() => {
  const script = path.join(dir, 'run.ts');
  writeFileSync(script, SCRIPT);
  const stdout = execFileSync(
    denoBinary(),
    ['run', '--allow-all', '--no-lock', '--node-modules-dir=none', script],
    { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 120_000 },
  );
  results = JSON.parse(stdout.trim().split('\n').pop()!) as typeof results;
}, 150_000);

const MiB = 1024 * 1024;

describe('readMultipartStream (real Deno)', () => {
  it('collects the text fields in order and hands on each file whole', () => {
    const ok = results.ok!;
    expect(ok.ok).toBe(true);
    expect(ok.fields).toEqual([
      ['name', 'Ada'],
      ['note', 'hi'],
    ]);
    expect(ok.files).toEqual([
      { field: 'cv', filename: 'cv.pdf', size: 3 * MiB + 5, head: 4100, xor: 7 },
      { field: 'photo', filename: 'p.png', size: 10, head: 10, xor: 0 },
    ]);
  });

  it('refuses a file over the per-file limit, naming the field and the limit', () => {
    expect(results.fileTooLarge).toMatchObject({
      ok: false,
      refusal: { status: 413, code: 'file_too_large', field: 'cv', limit: 5 * MiB },
      files: [],
    });
  });

  it("refuses files over the submission's limit, reporting the ones already handed on", () => {
    const outcome = results.totalTooLarge!;
    expect(outcome).toMatchObject({
      ok: false,
      refusal: { status: 413, code: 'files_too_large', field: 'b', limit: 8 * MiB },
    });
    // The first file was stored: the caller removes it.
    expect(outcome.files.map((f) => [f.field, f.size])).toEqual([['a', 4 * MiB]]);
  });

  it('refuses more files than allowed', () => {
    expect(results.tooMany).toMatchObject({
      ok: false,
      refusal: { status: 422, code: 'too_many_files', field: 'd', limit: 3 },
    });
  });

  it('refuses a body that is not multipart', () => {
    expect(results.malformed).toMatchObject({
      ok: false,
      refusal: { status: 400, code: 'malformed' },
    });
  });

  it('never holds a submission in memory: 120 and 240 MiB pass with the same small rise', () => {
    const big = results.big! as Outcome & { riseMiB: number };
    const bigger = results.bigger! as Outcome & { riseMiB: number };
    expect(big.ok && bigger.ok).toBe(true);
    expect(big.files.map((f) => f.size)).toEqual([60 * MiB, 60 * MiB]);
    expect(bigger.files.map((f) => f.size)).toEqual([60, 60, 60, 60].map((n) => n * MiB));
    // Held whole, the files would add 120 and 240 MiB; read as a stream, the rise (buffers not
    // yet collected) stays small and does not grow with the size.
    expect(big.riseMiB).toBeLessThan(80);
    expect(bigger.riseMiB).toBeLessThan(80);
  });
});
