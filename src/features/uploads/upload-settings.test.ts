import { describe, expect, it } from 'vitest';
import {
  DEFAULT_UPLOAD_ROW,
  bytesToMb,
  describeUploads,
  mbToBytes,
  rowOf,
  rowToSave,
  uploadSettingsSchema,
  valuesOf,
  type UploadValues,
} from './upload-settings';

const MB = 1024 * 1024;

const on: UploadValues = {
  enabled: true,
  kinds: ['image', 'pdf'],
  maxFileMb: '5',
  maxTotalMb: '10',
  maxFiles: '3',
};

/** The first error of each field, as Formik would show them. */
function errorsOf(values: UploadValues): Record<string, string> {
  try {
    uploadSettingsSchema.validateSync(values, { abortEarly: false });
    return {};
  } catch (error) {
    const errors: Record<string, string> = {};
    for (const inner of (error as { inner: { path: string; message: string }[] }).inner)
      errors[inner.path] ??= inner.message;
    return errors;
  }
}

describe('upload settings', () => {
  it('starts a form without settings off, with the endpoint’s defaults', () => {
    expect(valuesOf(null)).toEqual({
      enabled: false,
      kinds: ['image', 'pdf', 'office', 'text'],
      maxFileMb: '5',
      maxTotalMb: '10',
      maxFiles: '3',
    });
    expect(rowOf(valuesOf(null))).toEqual(DEFAULT_UPLOAD_ROW);
  });

  it('converts megabytes and bytes both ways, one decimal kept', () => {
    expect(mbToBytes('2.5')).toBe(2.5 * MB);
    expect(bytesToMb(2.5 * MB)).toBe('2.5');
    expect(bytesToMb(1_000_000)).toBe('1');
    expect(valuesOf({ ...DEFAULT_UPLOAD_ROW, kinds: ['archive', 'image'] }).kinds).toEqual([
      'image',
      'archive',
    ]);
  });

  it('holds each limit to the ceilings, with a sentence for each refusal', () => {
    expect(errorsOf(on)).toEqual({});
    expect(errorsOf({ ...on, maxFileMb: '10.5', maxTotalMb: '26', maxFiles: '11' })).toEqual({
      maxFileMb: 'At most 10 MB: the largest this service allows.',
      maxTotalMb: 'At most 25 MB: the largest this service allows.',
      maxFiles: 'At most 10 files: the most this service allows.',
    });
    expect(errorsOf({ ...on, maxFileMb: '0', maxFiles: '0' })).toEqual({
      maxFileMb: 'At least 0.1 MB.',
      maxFiles: 'At least 1 file.',
    });
    expect(errorsOf({ ...on, maxFileMb: '1.25' })).toEqual({
      maxFileMb: 'Use at most one decimal, e.g. 2.5.',
    });
    expect(errorsOf({ ...on, maxFileMb: '8', maxTotalMb: '6' })).toEqual({
      maxTotalMb: 'At least the largest file: a submission may always carry one file of that size.',
    });
    expect(errorsOf({ ...on, kinds: [] })).toEqual({
      kinds: 'Choose at least one kind of file, or turn uploads off.',
    });
    // Off, the hidden limits are not checked.
    expect(errorsOf({ ...on, enabled: false, kinds: [], maxFileMb: '99' })).toEqual({});
  });

  it('saves the shown values, or with uploads off the saved limits', () => {
    const saved = valuesOf({ ...DEFAULT_UPLOAD_ROW, enabled: true, max_files: 2 });
    expect(rowToSave({ ...on, maxFiles: '4' }, saved)).toMatchObject({
      enabled: true,
      max_files: 4,
    });
    expect(rowToSave({ ...on, enabled: false, maxFileMb: '99' }, saved)).toEqual({
      ...DEFAULT_UPLOAD_ROW,
      enabled: false,
      max_files: 2,
    });
  });

  it('describes the saved settings in a sentence', () => {
    expect(describeUploads(DEFAULT_UPLOAD_ROW)).toBe('Visitors cannot send files with this form.');
    expect(describeUploads({ ...DEFAULT_UPLOAD_ROW, enabled: true, max_files: 1 })).toBe(
      'Visitors can send up to 1 file: 5 MB each, 10 MB in all.',
    );
  });
});
