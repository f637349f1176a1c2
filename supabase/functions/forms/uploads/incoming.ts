// A file of a post as the endpoint receives it (stream.ts hands these on; receive.ts stores them).
// Types only, so code that stores files needs no multipart reader to compile.

export interface IncomingFile {
  /** The form field the file came in. */
  field: string;
  /** The name the browser sent (unsafe: see file-name.ts). */
  filename: string;
  /** The file's first bytes (fewer when the file is shorter). */
  head: Uint8Array;
  /** The whole file, head included. It errors with a StreamRefusal when a limit is broken. */
  body: ReadableStream<Uint8Array>;
}
