// A streaming reader of the multipart/form-data bodies supabase-js sends for a Blob or File: text
// fields first (`cacheControl`, `metadata`, `contentType`), then one file part whose bytes are
// handed on as they arrive, never held whole in memory. Parts after the file are read and
// dropped, as Storage takes the first file only.
import { errors } from './errors.ts';

/** Storage's own limits on the fields beside the file. */
const MAX_FIELDS = 10;
const MAX_FIELD_BYTES = 1024 * 1024 + 1024;
const MAX_HEADER_BYTES = 16 * 1024;

export interface MultipartFile {
  fields: Map<string, string>;
  /** The file part's own Content-Type, when it names one. */
  contentType: string | undefined;
  /** The file's bytes; the rest of the request is read (and dropped) once they have all passed. */
  body: AsyncIterable<Buffer>;
}

/** The boundary of a `multipart/form-data` Content-Type, or null for any other type. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : null;
}

const malformed = () => errors.invalidRequest('Malformed multipart/form-data body');

/** Reads a stream of chunks up to markers, keeping only what has not been handed on yet. */
class ChunkReader {
  buffer: Buffer = Buffer.alloc(0);
  private iterator: AsyncIterator<Buffer>;
  private ended = false;

  constructor(source: AsyncIterable<Buffer>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  /** Appends the next chunk; false at the end of the stream. */
  async more(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.iterator.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, next.value]) : next.value;
    return true;
  }

  /** The bytes before `marker` (at most `max` of them), consuming the marker too. */
  async until(marker: Buffer, max: number): Promise<Buffer> {
    for (;;) {
      const at = this.buffer.indexOf(marker);
      if (at >= 0) {
        const before = this.buffer.subarray(0, at);
        this.buffer = this.buffer.subarray(at + marker.length);
        return before;
      }
      if (this.buffer.length > max + marker.length || !(await this.more())) throw malformed();
    }
  }

  async take(count: number): Promise<Buffer> {
    while (this.buffer.length < count) if (!(await this.more())) throw malformed();
    const taken = this.buffer.subarray(0, count);
    this.buffer = this.buffer.subarray(count);
    return taken;
  }

  /** Reads the stream to its end, dropping it. */
  async drain() {
    this.buffer = Buffer.alloc(0);
    while (await this.more()) this.buffer = Buffer.alloc(0);
  }
}

interface PartHeaders {
  name: string | undefined;
  filename: string | undefined;
  contentType: string | undefined;
}

function parsePartHeaders(raw: string): PartHeaders {
  const headers = new Map<string, string>();
  for (const line of raw.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const disposition = headers.get('content-disposition') ?? '';
  const param = (key: string) =>
    new RegExp(`;\\s*${key}="([^"]*)"`, 'i').exec(disposition)?.[1] ??
    new RegExp(`;\\s*${key}=([^;\\s]+)`, 'i').exec(disposition)?.[1];
  return {
    name: param('name'),
    filename: param('filename'),
    contentType: headers.get('content-type'),
  };
}

/** The file's bytes up to the next delimiter, then the rest of the request read and dropped. */
async function* fileBytes(reader: ChunkReader, delimiter: Buffer): AsyncGenerator<Buffer> {
  // A delimiter may straddle two chunks: the last delimiter.length - 1 bytes wait for the next.
  const kept = delimiter.length - 1;
  for (;;) {
    const at = reader.buffer.indexOf(delimiter);
    if (at >= 0) {
      if (at > 0) yield reader.buffer.subarray(0, at);
      await reader.drain();
      return;
    }
    if (reader.buffer.length > kept) {
      const ready = reader.buffer.subarray(0, reader.buffer.length - kept);
      reader.buffer = reader.buffer.subarray(reader.buffer.length - kept);
      yield ready;
    }
    if (!(await reader.more())) throw malformed();
  }
}

/**
 * Reads the fields before the first file part and answers them with the file's bytes as a stream.
 * A body without a file part, or with more than 10 fields before it, is an InvalidRequest.
 */
export async function openMultipartFile(
  source: AsyncIterable<Buffer>,
  boundary: string,
): Promise<MultipartFile> {
  const reader = new ChunkReader(source);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // The first delimiter has no line break before it (a preamble, if any, is dropped).
  await reader.until(delimiter.subarray(2), MAX_FIELD_BYTES);
  const fields = new Map<string, string>();
  for (;;) {
    if ((await reader.take(2)).toString() === '--') break; // the closing delimiter
    const headers = parsePartHeaders(
      (await reader.until(Buffer.from('\r\n\r\n'), MAX_HEADER_BYTES)).toString('utf8'),
    );
    if (headers.filename !== undefined) {
      return { fields, contentType: headers.contentType, body: fileBytes(reader, delimiter) };
    }
    const value = await reader.until(delimiter, MAX_FIELD_BYTES);
    if (fields.size >= MAX_FIELDS) throw errors.invalidRequest('Too many fields in the form');
    if (headers.name !== undefined) fields.set(headers.name, value.toString('utf8'));
  }
  await reader.drain();
  throw errors.invalidRequest('No file in the form: the body needs one file part');
}
