import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FILE_SIZE_LIMIT,
  isMimeTypeAllowed,
  parseSizeLimit,
  uploadSizeLimit,
} from './limits.ts';

describe('size limits', () => {
  it("reads bytes, Storage's decimal units and config.toml's binary ones", () => {
    expect(parseSizeLimit(1024)).toBe(1024);
    expect(parseSizeLimit('1024')).toBe(1024);
    expect(parseSizeLimit('20MB')).toBe(20_000_000);
    expect(parseSizeLimit('50MiB')).toBe(DEFAULT_FILE_SIZE_LIMIT);
    expect(parseSizeLimit('1 kb')).toBe(1000);
    expect(parseSizeLimit('1.5KiB')).toBe(1536);
    expect(parseSizeLimit('2GB')).toBe(2e9);
  });

  it('refuses what is not a size', () => {
    for (const bad of ['', 'MB', '10 parsecs', -1, 1.5, null, {}]) {
      expect(() => parseSizeLimit(bad), String(bad)).toThrow(/not a size/);
    }
  });

  it("caps an upload at the lower of the global and the bucket's limit", () => {
    expect(uploadSizeLimit(100, null)).toBe(100);
    expect(uploadSizeLimit(100, 10)).toBe(10);
    expect(uploadSizeLimit(100, 1000)).toBe(100);
  });
});

describe('allowed MIME types', () => {
  it('takes anything without a list', () => {
    expect(isMimeTypeAllowed('application/x-anything', null)).toBe(true);
    expect(isMimeTypeAllowed('application/x-anything', [])).toBe(true);
  });

  it('matches exact types and type/* wildcards, ignoring parameters and case', () => {
    const allowed = ['image/*', 'text/plain'];
    expect(isMimeTypeAllowed('image/png', allowed)).toBe(true);
    expect(isMimeTypeAllowed('IMAGE/SVG+XML', allowed)).toBe(true);
    expect(isMimeTypeAllowed('text/plain;charset=UTF-8', allowed)).toBe(true);
    expect(isMimeTypeAllowed('text/html', allowed)).toBe(false);
    expect(isMimeTypeAllowed('application/pdf', allowed)).toBe(false);
  });
});
