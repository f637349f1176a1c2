// Benchmark (not a test): how fast does the form endpoint take files, and how much memory does the
// function hold while it does?
//
// Starts its own local stack on free ports in a temporary folder, in a process of its own
// (bench/stack-process.ts), with the forms function's rate limits lifted by the test-only
// FORMS_RATE_LIMITS=off. One owner, one form with uploads on (10 MB a file). In the same run:
//   - full path: BENCH_UPLOADS (10) concurrent multipart posts, each one 10 MB PDF, over HTTP →
//     gateway → `forms` on Deno (streamed, judged, streamed on to Storage) → the local Storage's
//     files on disk, the entry and its file rows committed; BENCH_ROUNDS (3) rounds;
//   - baseline: the same bytes written to files in a temporary folder by the same number of
//     concurrent writers (fs.writeFile), as many rounds.
// Prints MB/s for both and the ratio full/baseline, and the function's Deno process memory: its
// resident size before the first upload, the highest seen while sampling every 20 ms, and the
// kernel's high-water mark (VmHWM) at the end — and its isolate's peak (V8's heap plus external
// buffers, sampled inside the worker: what Supabase's runtime measures against a worker's memory
// limit, the process also holding Deno's own runtime); writes them into docs/PERFORMANCE.md.
//
//   npm run bench:uploads        (under a minute; BENCH_UPLOADS=… concurrent uploads,
//                                 BENCH_ROUNDS=… rounds, BENCH_FILE_MB=… the file size, ≤ 10)
import http from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { machineSummary, writeSection } from './report.ts';
import { startStackProcess, stopProcess } from './stack-process.ts';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FILE_MB = Math.min(10, Number(process.env.BENCH_FILE_MB ?? 10));
const FILE_BYTES = FILE_MB * 1024 * 1024;
const ORIGIN = 'https://site.example.test';
const RATE_LIMITS_OFF = { FORMS_RATE_LIMITS: 'off' };
const MB = 1024 * 1024;

/** A PDF's start, then random bytes (nothing on the way can compress them). */
const file = Buffer.concat([
  Buffer.from('%PDF-1.7\n%\u00e2\u00e3\n', 'latin1'),
  randomBytes(FILE_BYTES - 15),
]);
const boundary = '----tinybackBench';
const body = Buffer.concat([
  Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="message"\r\n\r\nThe report.\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="report"; filename="report.pdf"\r\n` +
      'Content-Type: application/pdf\r\n\r\n',
  ),
  file,
  Buffer.from(`\r\n--${boundary}--\r\n`),
]);

function post(url: URL): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': body.length,
        origin: ORIGIN,
        accept: 'application/json',
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        res.statusCode === 200
          ? resolve(res.statusCode)
          : reject(new Error(`${res.statusCode}: ${Buffer.concat(chunks).toString()}`)),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Resident and peak resident memory of a process, in bytes (Linux /proc). */
async function memoryOf(pid: number): Promise<{ rss: number; hwm: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tinyback-bench-uploads-'));
  const baselineDir = await mkdtemp(path.join(os.tmpdir(), 'tinyback-bench-disk-'));
  // The worker's isolate memory (V8's heap and the external buffers it tracks), sampled inside it.
  const isolateFile = path.join(dataDir, 'isolate-memory.json');
  const stack = await startStackProcess(dataDir, {
    functionEnv: { ...RATE_LIMITS_OFF, LOCAL_STACK_MEMORY_SAMPLES: isolateFile },
    functionLog: true,
  });
  const pool = new pg.Pool({ connectionString: stack.settings.dbUrl, max: 2 });
  try {
    const ownerId = randomUUID();
    await pool.query(
      `insert into auth.users (instance_id, id, aud, role, email, email_confirmed_at,
                               raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
               now(), '{"provider":"email","providers":["email"]}', '{}', now(), now())`,
      [ownerId, `owner-${ownerId.slice(0, 8)}@example.test`],
    );
    await pool.query(`select public.set_account_plan($1, 'unlimited')`, [ownerId]);
    const {
      rows: [form],
    } = await pool.query<{ id: string }>(
      `insert into public.forms (user_id, name, target_email, allowed_origin)
       values ($1, 'Files', $2, $3) returning id`,
      [ownerId, `owner-${ownerId.slice(0, 8)}@example.test`, ORIGIN],
    );
    await pool.query(
      `insert into public.form_uploads (form_id, user_id, enabled, kinds, max_file_bytes,
         max_total_bytes, max_files) values ($1, $2, true, '{pdf}', 10485760, 10485760, 1)`,
      [form!.id, ownerId],
    );
    // The bench's own stack: no storage quota, however many rounds run.
    await pool.query('update private.upload_settings set storage_quota_bytes = null');
    const url = new URL(`${stack.settings.apiUrl}/functions/v1/forms/${form!.id}`);

    // One upload boots the function's worker; its memory is read from then on.
    await post(url);
    const ready = stack.functionLog.filter((l) => /forms: worker \d+ ready/.test(l)).at(-1);
    const pid = Number(/worker (\d+) ready/.exec(ready ?? '')?.[1]);
    if (!pid) throw new Error('the forms worker did not say its pid');
    const before = await memoryOf(pid);

    let peak = before.rss;
    const sampler = setInterval(() => {
      memoryOf(pid)
        .then((m) => (peak = Math.max(peak, m.rss)))
        .catch(() => undefined);
    }, 20);
    const started = performance.now();
    for (let round = 0; round < ROUNDS; round++)
      await Promise.all(Array.from({ length: UPLOADS }, () => post(url)));
    const fullSeconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const after = await memoryOf(pid);
    // The worker writes a new peak at most every 20 ms: one more tick settles the last one.
    await new Promise((resolve) => setTimeout(resolve, 60));
    const isolate = JSON.parse(await readFile(isolateFile, 'utf8')) as {
      peak: number;
      heapTotal: number;
      external: number;
    };
    const { rows } = await pool.query<{ n: number }>(
      'select count(*)::int n from public.entry_files where form_id = $1',
      [form!.id],
    );
    if (rows[0]!.n !== ROUNDS * UPLOADS + 1)
      throw new Error(`expected ${ROUNDS * UPLOADS + 1} stored files, found ${rows[0]!.n}`);

    const diskStarted = performance.now();
    for (let round = 0; round < ROUNDS; round++)
      await Promise.all(
        Array.from({ length: UPLOADS }, (_, i) =>
          writeFile(path.join(baselineDir, `${round}-${i}.pdf`), file),
        ),
      );
    const diskSeconds = (performance.now() - diskStarted) / 1000;

    const totalMb = (ROUNDS * UPLOADS * FILE_BYTES) / MB;
    const full = totalMb / fullSeconds;
    const disk = totalMb / diskSeconds;
    const lines = [
      `| path | ${UPLOADS} concurrent ${FILE_MB} MB uploads × ${ROUNDS} | throughput |`,
      '|---|---|---|',
      `| full path (HTTP → function → Storage → disk, rows committed) | ${fullSeconds.toFixed(2)} s | ${full.toFixed(1)} MB/s |`,
      `| baseline (the same bytes written straight to disk) | ${diskSeconds.toFixed(2)} s | ${disk.toFixed(1)} MB/s |`,
      `| ratio full / baseline | | ${(full / disk).toFixed(3)} |`,
      '',
      `The function's Deno process: ${mb(before.rss)} resident before the first round, at most ` +
        `${mb(peak)} while ${UPLOADS} uploads ran at once (sampled every 20 ms), high-water mark ` +
        `${mb(after.hwm)}.`,
      '',
      `The function's isolate (V8's heap and the external buffers it holds, what Supabase's ` +
        `runtime counts against a worker's memory limit): at most ${mb(isolate.peak)} ` +
        `(heap ${mb(isolate.heapTotal)}, external ${mb(isolate.external)} at that moment), ` +
        `sampled every 20 ms inside the worker (target: under 150 MB).`,
    ];
    console.log(lines.join('\n'));
    await writeSection('uploads', 'File uploads', machineSummary(), lines, [
      `Each upload is one multipart post carrying one ${FILE_MB} MB PDF of random bytes; the ` +
        'function streams it (never holding a file whole) to the local Storage, which writes it ' +
        'to disk; the baseline writes the same bytes with the same concurrency. The worker runs ' +
        "with the heap Supabase's edge runtime gives a user worker (a 256 MiB limit, 1 MiB " +
        'semi-spaces: local-stack/functions/worker-process.ts).',
    ]);
  } finally {
    await pool.end();
    await stopProcess(stack.child);
    await rm(dataDir, { recursive: true, force: true });
    await rm(baselineDir, { recursive: true, force: true });
  }
}

await main();
