import { describe, expect, it } from 'vitest';
import { StorageError } from './errors.ts';
import { checkKey, isValidBucketName, isValidKey } from './keys.ts';

describe('object keys', () => {
  it("accepts Storage's characters, folders included", () => {
    for (const key of [
      'a.png',
      'user-1/avatar.png',
      "folder/it's (1) & $=@;:+,?!*.txt",
      'Übersicht/naïve café.pdf',
      'with space/x',
    ]) {
      expect(isValidKey(key), key).toBe(true);
    }
  });

  it('refuses other characters and segments that would escape or collide on disk', () => {
    for (const key of [
      '',
      'a\\b',
      'a#b',
      'a%b',
      'a<b',
      'tab\there',
      '../x',
      'a/./b',
      'a//b',
      '/a',
      'a/',
    ]) {
      expect(isValidKey(key), key).toBe(false);
    }
  });

  it('answers InvalidKey with a 400', () => {
    const error = (() => {
      try {
        checkKey('a#b');
      } catch (err) {
        return err as StorageError;
      }
    })();
    expect(error).toBeInstanceOf(StorageError);
    expect(error?.code).toBe('InvalidKey');
    expect(error?.httpStatus).toBe(400);
  });
});

describe('bucket names', () => {
  it('takes up to 100 key characters without a slash', () => {
    expect(isValidBucketName('avatars')).toBe(true);
    expect(isValidBucketName('a'.repeat(100))).toBe(true);
    expect(isValidBucketName('a'.repeat(101))).toBe(false);
    expect(isValidBucketName('a/b')).toBe(false);
    expect(isValidBucketName('')).toBe(false);
    expect(isValidBucketName('..')).toBe(false);
  });
});
