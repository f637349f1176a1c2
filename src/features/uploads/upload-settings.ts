// A form's upload settings as its Edit dialog's "Files" part edits them: sizes in megabytes (one
// decimal), the kinds as checkboxes, each checked against the deployment's ceilings with a
// sentence saying what is allowed; and the conversion between those values and the stored row.
import * as yup from 'yup';
import {
  BYTES_PER_MB,
  DEFAULT_FILE_KINDS,
  FILE_KINDS,
  UPLOAD_LIMITS,
  type FileKind,
} from '../../config/uploads';

/** What the settings' fields hold; sizes in MB as typed. */
export interface UploadValues {
  enabled: boolean;
  kinds: FileKind[];
  maxFileMb: string;
  maxTotalMb: string;
  maxFiles: string;
}

/** The stored columns the settings are made of. */
export interface UploadRow {
  enabled: boolean;
  kinds: FileKind[];
  max_file_bytes: number;
  max_total_bytes: number;
  max_files: number;
}

export const MAX_FILE_MB = UPLOAD_LIMITS.maxFileBytes / BYTES_PER_MB;
export const MAX_TOTAL_MB = UPLOAD_LIMITS.maxTotalBytes / BYTES_PER_MB;
/** The smallest size a limit can be set to, in MB (the step of the fields). */
export const MIN_MB = 0.1;

/** Bytes as MB for a field: at most one decimal ("5", "2.5"). */
export function bytesToMb(bytes: number): string {
  return String(Math.round((bytes / BYTES_PER_MB) * 10) / 10);
}

/** MB as typed, in whole bytes. */
export function mbToBytes(mb: string | number): number {
  return Math.round(Number(mb) * BYTES_PER_MB);
}

/** A form without settings: off, with the defaults the endpoint starts a form with. */
export const DEFAULT_UPLOAD_ROW: UploadRow = {
  enabled: false,
  kinds: [...DEFAULT_FILE_KINDS],
  max_file_bytes: UPLOAD_LIMITS.defaults.maxFileBytes,
  max_total_bytes: UPLOAD_LIMITS.defaults.maxTotalBytes,
  max_files: UPLOAD_LIMITS.defaults.maxFiles,
};

export function valuesOf(row: UploadRow | null): UploadValues {
  const saved = row ?? DEFAULT_UPLOAD_ROW;
  return {
    enabled: saved.enabled,
    // In the settings' order, whatever order the row keeps them in; unknown ones dropped.
    kinds: FILE_KINDS.filter((kind) => saved.kinds.includes(kind)),
    maxFileMb: bytesToMb(saved.max_file_bytes),
    maxTotalMb: bytesToMb(saved.max_total_bytes),
    maxFiles: String(saved.max_files),
  };
}

export function rowOf(values: UploadValues): UploadRow {
  return {
    enabled: values.enabled,
    kinds: FILE_KINDS.filter((kind) => values.kinds.includes(kind)),
    max_file_bytes: mbToBytes(values.maxFileMb),
    max_total_bytes: mbToBytes(values.maxTotalMb),
    max_files: Number(values.maxFiles),
  };
}

const oneDecimal = (value: number | undefined) =>
  value === undefined || Math.abs(value * 10 - Math.round(value * 10)) < 1e-9;

/** Only what is shown is checked: with uploads off the limits are hidden and not saved. */
const whenOn = (schema: yup.NumberSchema<number | undefined>) =>
  yup.number().when('enabled', { is: true, then: () => schema, otherwise: (s) => s.notRequired() });

const megabytes = (what: string, max: number) =>
  yup
    .number()
    .typeError(`Enter the ${what} in MB, e.g. 5 or 2.5.`)
    .required(`Enter the ${what} in MB.`)
    .min(MIN_MB, `At least ${MIN_MB} MB.`)
    .max(max, `At most ${max} MB: the largest this service allows.`)
    .test('one-decimal', 'Use at most one decimal, e.g. 2.5.', oneDecimal);

export const uploadSettingsSchema = yup.object({
  enabled: yup.boolean().required(),
  kinds: yup
    .array(yup.mixed<FileKind>().oneOf(FILE_KINDS).required())
    .required()
    .when('enabled', {
      is: true,
      then: (s) => s.min(1, 'Choose at least one kind of file, or turn uploads off.'),
    }),
  maxFileMb: whenOn(megabytes('largest file', MAX_FILE_MB)),
  maxTotalMb: whenOn(
    megabytes('largest total', MAX_TOTAL_MB).test(
      'not-below-file',
      'At least the largest file: a submission may always carry one file of that size.',
      function notBelowFile(value) {
        const file = Number((this.parent as UploadValues).maxFileMb);
        return value === undefined || !Number.isFinite(file) || value >= file;
      },
    ),
  ),
  maxFiles: whenOn(
    yup
      .number()
      .typeError('Enter a number of files.')
      .required('Enter a number of files.')
      .integer('Enter a whole number of files.')
      .min(1, 'At least 1 file.')
      .max(
        UPLOAD_LIMITS.maxFiles,
        `At most ${UPLOAD_LIMITS.maxFiles} files: the most this service allows.`,
      ),
  ),
});

/**
 * The row a save stores: the values as typed, or with uploads off the saved limits and kinds
 * (hidden then, so nothing typed there is stored unseen).
 */
export function rowToSave(values: UploadValues, saved: UploadValues): UploadRow {
  return values.enabled ? rowOf(values) : { ...rowOf(saved), enabled: false };
}

/** The settings in a sentence, for the saved notice. */
export function describeUploads(row: UploadRow): string {
  if (!row.enabled || row.kinds.length === 0) return 'Visitors cannot send files with this form.';
  const files = row.max_files === 1 ? '1 file' : `${row.max_files} files`;
  return `Visitors can send up to ${files}: ${bytesToMb(row.max_file_bytes)} MB each, ${bytesToMb(row.max_total_bytes)} MB in all.`;
}
