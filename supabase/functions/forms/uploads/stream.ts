// A multipart/form-data post read as a stream: text fields collected, each file handed on as a
// stream while it arrives, so a submission's files are never held in memory (busboy, through
// Deno's Node compatibility: Request.formData() would hold every file whole). Each file's first
// bytes are read ahead for judging its kind (kinds.ts); its size, the submission's size and the
// number of files are counted as they pass, and the first limit broken ends the read with a
// refusal that names the field and the limit. Files already handed on are reported either way,
// so the caller can remove what it stored.
import busboy from 'npm:busboy@1.6.0';
import { Readable } from 'node:stream';
import type { IncomingFile } from './incoming.ts';

export type { IncomingFile } from './incoming.ts';

export interface StreamLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
  /** Text fields: how many, and how many bytes each. */
  maxFields: number;
  maxFieldBytes: number;
  /** Bytes read ahead from each file's start (UPLOADS.sniffBytes). */
  headBytes: number;
}

export type StreamRefusal =
  | { status: 413; code: 'file_too_large'; field: string; limit: number }
  | { status: 413; code: 'files_too_large'; field: string; limit: number }
  | { status: 422; code: 'too_many_files'; field: string; limit: number }
  | { status: 400; code: 'malformed' };

export type StreamOutcome<T> =
  | { ok: true; fields: [string, string][]; files: T[] }
  | { ok: false; refusal: StreamRefusal; files: T[] }
  /** `receive` failed (e.g. Storage was away): `cause` is its error. */
  | { ok: false; refusal: null; cause: unknown; files: T[] };

/** The error a file's body ends with when a limit is broken. */
class LimitError extends Error {
  constructor(readonly refusal: StreamRefusal) {
    super(refusal.code);
  }
}

/** Reads up to `bytes` from the start of a Node stream; the rest is left in it, paused. */
async function readHead(stream: Readable, bytes: number): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  let have = 0;
  for await (const chunk of stream.iterator({ destroyOnReturn: false })) {
    chunks.push(chunk as Uint8Array);
    have += (chunk as Uint8Array).length;
    if (have >= bytes) break;
  }
  return chunks;
}

function concat(chunks: readonly Uint8Array[], max: number): Uint8Array {
  const out = new Uint8Array(
    Math.min(
      max,
      chunks.reduce((n, c) => n + c.length, 0),
    ),
  );
  let at = 0;
  for (const chunk of chunks) {
    if (at >= out.length) break;
    const part = chunk.subarray(0, out.length - at);
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Reads `body` (a multipart/form-data request body with `contentType`), handing each file to
 * `receive` one after another (it must read the file's body to its end, or fail).
 */
export function readMultipartStream<T>(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  limits: StreamLimits,
  receive: (file: IncomingFile) => Promise<T>,
): Promise<StreamOutcome<T>> {
  return new Promise((resolve) => {
    const fields: [string, string][] = [];
    const files: T[] = [];
    let refusal: StreamRefusal | null = null;
    let failure: { cause: unknown } | null = null;
    let fileCount = 0;
    let totalBytes = 0;
    let receiving: Promise<unknown> = Promise.resolve();
    let parser: busboy.Busboy;
    const source = Readable.fromWeb(body as Parameters<typeof Readable.fromWeb>[0]);
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      source.unpipe();
      source.destroy();
      void receiving
        .catch(() => undefined)
        .then(() =>
          resolve(
            refusal
              ? { ok: false, refusal, files }
              : failure
                ? { ok: false, refusal: null, cause: failure.cause, files }
                : { ok: true, fields, files },
          ),
        );
    };
    const refuse = (next: StreamRefusal) => {
      refusal ??= next;
      finish();
    };

    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        // Browsers send a file's name as UTF-8 bytes; busboy would read them as Latin-1.
        defParamCharset: 'utf8',
        // busboy's own caps sit just past ours, so ours are the ones that answer.
        limits: {
          fields: limits.maxFields + 1,
          fieldSize: limits.maxFieldBytes + 1,
          files: limits.maxFiles + 1,
          fileSize: limits.maxFileBytes + 1,
        },
      });
    } catch {
      resolve({ ok: false, refusal: { status: 400, code: 'malformed' }, files });
      return;
    }

    parser.on('field', (name: string, value: string, info: { valueTruncated: boolean }) => {
      if (info.valueTruncated || fields.length >= limits.maxFields) {
        refuse({ status: 400, code: 'malformed' });
        return;
      }
      fields.push([name, value]);
    });

    parser.on('file', (field: string, stream: Readable, info: { filename?: string }) => {
      fileCount++;
      if (fileCount > limits.maxFiles) {
        stream.resume();
        refuse({ status: 422, code: 'too_many_files', field, limit: limits.maxFiles });
        return;
      }
      const previous = receiving;
      receiving = (async () => {
        await previous;
        if (refusal) {
          stream.resume();
          return;
        }
        const headChunks = await readHead(stream, limits.headBytes);
        let fileBytes = 0;
        const broken = (chunk: Uint8Array): StreamRefusal | null => {
          fileBytes += chunk.length;
          totalBytes += chunk.length;
          if (fileBytes > limits.maxFileBytes)
            return { status: 413, code: 'file_too_large', field, limit: limits.maxFileBytes };
          if (totalBytes > limits.maxTotalBytes)
            return { status: 413, code: 'files_too_large', field, limit: limits.maxTotalBytes };
          return null;
        };
        const rest = stream.iterator({ destroyOnReturn: true });
        let pending = [...headChunks];
        const file: IncomingFile = {
          field,
          filename: info.filename ?? '',
          head: concat(headChunks, limits.headBytes),
          body: new ReadableStream<Uint8Array>({
            async pull(controller) {
              const next = pending.shift() ?? (await rest.next()).value;
              if (next === undefined) {
                controller.close();
                return;
              }
              const limit = broken(next as Uint8Array);
              if (limit) {
                controller.error(new LimitError(limit));
                refuse(limit);
                return;
              }
              controller.enqueue(next as Uint8Array);
            },
            async cancel() {
              pending = [];
              await rest.return?.();
            },
          }),
        };
        try {
          files.push(await receive(file));
        } catch (err) {
          // A broken limit or a malformed body is told already; anything else ends the read.
          if (!refusal) {
            failure ??= { cause: err };
            finish();
          }
        }
        stream.resume();
      })();
    });

    parser.on('error', () => refuse({ status: 400, code: 'malformed' }));
    parser.on('close', finish);
    source.on('error', () => refuse({ status: 400, code: 'malformed' }));
    source.pipe(parser);
  });
}
