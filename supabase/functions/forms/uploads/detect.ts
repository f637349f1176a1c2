// The type a file's first bytes show, by their magic numbers (file-type, a kept library that
// knows several hundred formats, Office's zip-based ones among them). Deno only (an npm:
// import); kinds.ts decides what the answer means for a form.
import { fileTypeFromBuffer } from 'npm:file-type@22.3.0';
import type { Detected } from './kinds.ts';

/** What `head` (a file's first UPLOADS.sniffBytes bytes, or all of a smaller one) is, if known. */
export async function detectType(head: Uint8Array): Promise<Detected | undefined> {
  const found = await fileTypeFromBuffer(head);
  return found ? { mime: found.mime, ext: found.ext } : undefined;
}
