// What kind of file an upload is, judged from its content, never from the name or the
// Content-Type the client sent. A detector (file-type, in detect.ts, reading the first bytes)
// names binary formats by their magic bytes; what it cannot name is text when its first bytes are
// UTF-8 without NULs, and unknown otherwise. An owner allows kinds per form; a file of any other
// kind, or of none, is refused. Markup (HTML, SVG) is text here: it is stored as text/plain and
// downloaded as an attachment, never rendered as a page of our origin.
// Pure code: the same under Deno and Node.

export type FileKind = 'image' | 'pdf' | 'office' | 'text' | 'archive';

/** The kinds an owner can allow, with the types each takes (MIME type → usual extension). */
export const FILE_KINDS: Record<FileKind, { label: string; types: Record<string, string> }> = {
  image: {
    label: 'Images',
    types: {
      'image/png': 'png',
      'image/jpeg': 'jpg',
      'image/gif': 'gif',
      'image/webp': 'webp',
      'image/avif': 'avif',
      'image/heic': 'heic',
      'image/heif': 'heif',
      'image/bmp': 'bmp',
      'image/tiff': 'tif',
    },
  },
  pdf: { label: 'PDF', types: { 'application/pdf': 'pdf' } },
  office: {
    label: 'Office documents',
    types: {
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
      'application/vnd.oasis.opendocument.text': 'odt',
      'application/vnd.oasis.opendocument.spreadsheet': 'ods',
      'application/vnd.oasis.opendocument.presentation': 'odp',
      // Word 97–2003, Excel 97–2003 and PowerPoint 97–2003 files are Compound File Binary.
      'application/x-cfb': 'doc',
      'application/rtf': 'rtf',
    },
  },
  text: { label: 'Text (.txt, .csv, …)', types: { 'text/plain': 'txt' } },
  archive: {
    label: 'Archives',
    types: {
      'application/zip': 'zip',
      'application/gzip': 'gz',
      'application/x-7z-compressed': '7z',
      'application/x-tar': 'tar',
      'application/x-bzip2': 'bz2',
      'application/x-xz': 'xz',
      'application/x-rar-compressed': 'rar',
    },
  },
};

/** Allowed when a form turns uploads on, until its owner chooses. Archives are opt-in. */
export const DEFAULT_KINDS: readonly FileKind[] = ['image', 'pdf', 'office', 'text'];

/** What a detector read in the first bytes. */
export interface Detected {
  mime: string;
  ext: string;
}

export type Judgement =
  | { ok: true; kind: FileKind; mime: string; ext: string }
  /** `mime`: what the content is (null when nothing could tell), for the refusal's message. */
  | { ok: false; mime: string | null };

const KIND_OF_TYPE = new Map<string, FileKind>(
  (Object.entries(FILE_KINDS) as [FileKind, (typeof FILE_KINDS)[FileKind]][]).flatMap(
    ([kind, { types }]) => Object.keys(types).map((mime) => [mime, kind] as [string, FileKind]),
  ),
);

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether the first bytes of a file are text: UTF-8 (a sequence cut by the end of `head` counts)
 * with no NUL. An empty file is text.
 */
export function looksLikeText(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
  // A multi-byte sequence may be cut at the end of the sample: try without up to 3 last bytes.
  for (let cut = 0; cut <= Math.min(3, head.length); cut++) {
    try {
      utf8.decode(head.subarray(0, head.length - cut));
      return true;
    } catch {
      // Try the next cut.
    }
  }
  return false;
}

/** The file's kind and type from its content, or a refusal when its kind is not allowed. */
export function judgeFile(
  detected: Detected | undefined,
  head: Uint8Array,
  allowed: readonly FileKind[],
): Judgement {
  let kind: FileKind | undefined;
  let mime: string | null;
  if (detected) {
    mime = detected.mime;
    kind = KIND_OF_TYPE.get(detected.mime);
  } else if (looksLikeText(head)) {
    mime = 'text/plain';
    kind = 'text';
  } else {
    mime = null;
  }
  if (!kind || mime === null || !allowed.includes(kind)) return { ok: false, mime };
  return { ok: true, kind, mime, ext: FILE_KINDS[kind].types[mime] ?? detected?.ext ?? 'bin' };
}
