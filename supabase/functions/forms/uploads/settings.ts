// A form's upload settings as the endpoint applies them: what the owner stored, held to the
// deployment's ceilings (UPLOADS in _shared/limits.ts) whatever the row says, so a setting saved
// under higher ceilings, or written around the dashboard, never lets more through than the
// deployment allows. Pure code.
import { UPLOADS } from '../../_shared/limits.ts';
import { DEFAULT_KINDS, FILE_KINDS, type FileKind } from './kinds.ts';

export interface UploadSettings {
  enabled: boolean;
  kinds: readonly FileKind[];
  maxFileBytes: number;
  maxTotalBytes: number;
  maxFiles: number;
}

/** A form without upload settings: uploads off. */
export const UPLOADS_OFF: UploadSettings = {
  enabled: false,
  kinds: DEFAULT_KINDS,
  ...UPLOADS.defaults,
};

const isKind = (value: unknown): value is FileKind =>
  typeof value === 'string' && Object.hasOwn(FILE_KINDS, value);

/** `value` as a whole number between 1 and `ceiling`, else `fallback`. */
function bounded(value: unknown, ceiling: number, fallback: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) return fallback;
  return Math.min(value, ceiling);
}

/** The settings the endpoint applies for a stored row (null: the form has none). */
export function uploadSettings(row: Record<string, unknown> | null): UploadSettings {
  if (!row) return UPLOADS_OFF;
  const kinds = Array.isArray(row.kinds) ? [...new Set(row.kinds.filter(isKind))] : DEFAULT_KINDS;
  const maxFileBytes = bounded(
    row.max_file_bytes,
    UPLOADS.maxFileBytes,
    UPLOADS.defaults.maxFileBytes,
  );
  return {
    // Nothing allowed is the same as off.
    enabled: row.enabled === true && kinds.length > 0,
    kinds,
    maxFileBytes,
    // A submission may always carry one file of the largest size allowed.
    maxTotalBytes: Math.max(
      maxFileBytes,
      bounded(row.max_total_bytes, UPLOADS.maxTotalBytes, UPLOADS.defaults.maxTotalBytes),
    ),
    maxFiles: bounded(row.max_files, UPLOADS.maxFiles, UPLOADS.defaults.maxFiles),
  };
}
