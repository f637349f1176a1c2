// A failed save of a form's upload settings, or a failed file download, in words for the owner.
import { MAX_FILE_MB, MAX_TOTAL_MB } from './upload-settings';
import { UPLOAD_LIMITS } from '../../config/uploads';
import { describeSettingSaveError } from '../../lib/setting-errors';

interface StorageErrorLike {
  statusCode?: unknown;
  status?: unknown;
  message?: unknown;
}

/** The database's check constraints on the settings, by name, and what each refusal means. */
const CONSTRAINTS: Record<string, string> = {
  form_uploads_kinds: 'Not saved: one of the kinds of file is not one this service knows.',
  form_uploads_max_file_bytes: `Not saved: a file may be at most ${MAX_FILE_MB} MB.`,
  form_uploads_max_total_bytes: `Not saved: a submission’s files may be at most ${MAX_TOTAL_MB} MB together.`,
  form_uploads_max_files: `Not saved: a submission may carry at most ${UPLOAD_LIMITS.maxFiles} files.`,
};

/** `action` says what was tried ("save the file settings"). */
export function describeUploadSettingsError(error: unknown, action: string): string {
  return describeSettingSaveError(error, action, CONSTRAINTS);
}

/** Why a file could not be opened: Storage's answer (a StorageError) in words. */
export function describeFileError(error: unknown, name: string): string {
  const { statusCode, status, message } = (error ?? {}) as StorageErrorLike;
  const code = Number(statusCode ?? status);
  const text = typeof message === 'string' ? message.toLowerCase() : '';
  if (code === 404 || text.includes('not found'))
    return `“${name}” is no longer stored: it may have been deleted with its message.`;
  if (code === 400 || code === 401 || code === 403)
    return `You are not allowed to download “${name}”. Sign in again and retry.`;
  return `“${name}” could not be downloaded. Check your connection and try again.`;
}
