// File uploads as the site needs them: the deployment's ceilings and a new form's limits (read
// from the endpoint's own UPLOADS, one definition), the kinds of file an owner can allow with
// their labels, and the columns a stored file is read with (the inbox lists them, the uploads
// feature shows and downloads them). The kinds are the endpoint's (supabase/functions/forms/
// uploads/kinds.ts, which the site may not import) and the database's check on
// form_uploads.kinds and entry_files.kind (FileKind in lib/database.ts).
import { UPLOADS } from '../../supabase/functions/_shared/limits';
import type { FileKind, Tables } from '../lib/database';

export type { FileKind } from '../lib/database';

/** Bytes in the megabyte the settings are written in (the ceilings are whole binary megabytes). */
export const BYTES_PER_MB = 1024 * 1024;

/** The ceilings and defaults, in bytes and files, as the endpoint enforces them. */
export const UPLOAD_LIMITS = {
  maxFileBytes: UPLOADS.maxFileBytes,
  maxTotalBytes: UPLOADS.maxTotalBytes,
  maxFiles: UPLOADS.maxFiles,
  defaults: UPLOADS.defaults,
} as const;

/** Every kind, in the order the settings list them, with the endpoint's labels. */
export const FILE_KIND_LABELS = {
  image: 'Images',
  pdf: 'PDF',
  office: 'Office documents',
  text: 'Text (.txt, .csv, …)',
  archive: 'Archives',
} as const satisfies Record<FileKind, string>;

export const FILE_KINDS = Object.keys(FILE_KIND_LABELS) as FileKind[];

/**
 * The `accept` hint of a file input for each kind (the picker's filter only: the endpoint judges
 * every file by its content whatever the browser lets through).
 */
export const FILE_KIND_ACCEPT = {
  image: 'image/*',
  pdf: '.pdf,application/pdf',
  office: '.doc,.docx,.xls,.xlsx,.ppt,.pptx,.odt,.ods,.odp,.rtf',
  text: '.txt,.csv,text/plain,text/csv',
  archive: '.zip,.gz,.tgz,.7z,.tar,.bz2',
} as const satisfies Record<FileKind, string>;

/** Allowed when a form turns uploads on, until its owner chooses. Archives are opt-in. */
export const DEFAULT_FILE_KINDS: readonly FileKind[] = ['image', 'pdf', 'office', 'text'];

/** A stored file as the site reads it (`entry_files`, the owner's own under RLS). */
export type EntryFile = Pick<
  Tables<'entry_files'>,
  'id' | 'position' | 'name' | 'kind' | 'mime_type' | 'size' | 'object_key'
>;

/** The columns of EntryFile, as a select list or an embed's. */
export const ENTRY_FILE_COLUMNS = 'id, position, name, kind, mime_type, size, object_key';

/** The private bucket the endpoint stores files in. */
export const SUBMISSION_FILES_BUCKET = 'submission-files';

/** 1536 → "1.5 KB", 5242880 → "5 MB" (binary units, as the limits are written). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB'] as const;
  let value = bytes / 1024;
  let unit = 0;
  const rounded = (n: number) => (n >= 10 ? Math.round(n) : Math.round(n * 10) / 10);
  // Up a unit once the rounded number would read 1024 or more ("1 MB", never "1024 KB").
  while (rounded(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${rounded(value)} ${units[unit]}`;
}
