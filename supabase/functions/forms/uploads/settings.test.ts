// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { UPLOADS } from '../../_shared/limits.ts';
import { uploadSettings, UPLOADS_OFF } from './settings.ts';

describe('uploadSettings', () => {
  it('is off for a form without settings', () => {
    expect(uploadSettings(null)).toEqual(UPLOADS_OFF);
    expect(UPLOADS_OFF.enabled).toBe(false);
  });

  it("applies the owner's choices within the deployment's ceilings", () => {
    expect(
      uploadSettings({
        enabled: true,
        kinds: ['pdf', 'image'],
        max_file_bytes: 1_000_000,
        max_total_bytes: 3_000_000,
        max_files: 2,
      }),
    ).toEqual({
      enabled: true,
      kinds: ['pdf', 'image'],
      maxFileBytes: 1_000_000,
      maxTotalBytes: 3_000_000,
      maxFiles: 2,
    });
  });

  it('never lets more through than the ceilings, whatever the row says', () => {
    const settings = uploadSettings({
      enabled: true,
      kinds: ['pdf'],
      max_file_bytes: 10 ** 12,
      max_total_bytes: 10 ** 12,
      max_files: 10_000,
    });
    expect(settings).toMatchObject({
      maxFileBytes: UPLOADS.maxFileBytes,
      maxTotalBytes: UPLOADS.maxTotalBytes,
      maxFiles: UPLOADS.maxFiles,
    });
  });

  it('takes the defaults for values that are not whole positive numbers', () => {
    for (const bad of [0, -5, 1.5, '100', null, Number.NaN]) {
      expect(
        uploadSettings({ enabled: true, kinds: ['pdf'], max_file_bytes: bad, max_files: bad }),
      ).toMatchObject({
        maxFileBytes: UPLOADS.defaults.maxFileBytes,
        maxFiles: UPLOADS.defaults.maxFiles,
      });
    }
  });

  it('keeps known kinds only, once each, and is off when none is left', () => {
    expect(
      uploadSettings({ enabled: true, kinds: ['pdf', 'exe', 'pdf', '__proto__', 'text'] }).kinds,
    ).toEqual(['pdf', 'text']);
    expect(uploadSettings({ enabled: true, kinds: ['exe'] }).enabled).toBe(false);
    expect(uploadSettings({ enabled: 'yes', kinds: ['pdf'] }).enabled).toBe(false);
  });

  it('lets a submission carry one file of the largest size allowed', () => {
    expect(
      uploadSettings({
        enabled: true,
        kinds: ['pdf'],
        max_file_bytes: 8_000_000,
        max_total_bytes: 1_000,
      }).maxTotalBytes,
    ).toBe(8_000_000);
  });
});
