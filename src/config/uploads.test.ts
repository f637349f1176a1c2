import { describe, expect, it } from 'vitest';
import { UPLOADS } from '../../supabase/functions/_shared/limits';
import {
  DEFAULT_FILE_KINDS,
  ENTRY_FILE_COLUMNS,
  FILE_KIND_LABELS,
  FILE_KINDS,
  UPLOAD_LIMITS,
  formatFileSize,
} from './uploads';

describe('uploads as the site states them', () => {
  it('holds the endpoint’s ceilings and defaults', () => {
    expect(UPLOAD_LIMITS).toEqual({
      maxFileBytes: UPLOADS.maxFileBytes,
      maxTotalBytes: UPLOADS.maxTotalBytes,
      maxFiles: UPLOADS.maxFiles,
      defaults: UPLOADS.defaults,
    });
    expect(UPLOAD_LIMITS.maxFileBytes).toBe(10 * 1024 * 1024);
    expect(UPLOAD_LIMITS.maxTotalBytes).toBe(25 * 1024 * 1024);
  });

  it('lists the five kinds with the endpoint’s labels, archives opt-in', () => {
    expect(FILE_KINDS).toEqual(['image', 'pdf', 'office', 'text', 'archive']);
    expect(Object.values(FILE_KIND_LABELS)).toEqual([
      'Images',
      'PDF',
      'Office documents',
      'Text (.txt, .csv, …)',
      'Archives',
    ]);
    expect(DEFAULT_FILE_KINDS).toEqual(['image', 'pdf', 'office', 'text']);
  });

  it('reads a file with the columns the inbox shows and downloads', () => {
    expect(ENTRY_FILE_COLUMNS.split(', ')).toEqual([
      'id',
      'position',
      'name',
      'kind',
      'mime_type',
      'size',
      'object_key',
    ]);
  });

  it('words sizes in binary units, one decimal below ten', () => {
    expect(formatFileSize(0)).toBe('0 bytes');
    expect(formatFileSize(1)).toBe('1 byte');
    expect(formatFileSize(1023)).toBe('1023 bytes');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(204_800)).toBe('200 KB');
    expect(formatFileSize(1024 * 1024 - 1)).toBe('1 MB');
    expect(formatFileSize(5 * 1024 * 1024)).toBe('5 MB');
    expect(formatFileSize(2.25 * 1024 * 1024)).toBe('2.3 MB');
    expect(formatFileSize(Number.NaN)).toBe('—');
  });
});
