// Object keys and bucket names as Storage accepts them (storage/v1 `src/storage/limits.ts`), plus
// what the local stack refuses on top: keys that would escape or collide on its disk.
import { errors } from './errors.ts';

/** Letters, digits, space and `_ / ! . * ' ( ) & $ = @ ; : + , ? -` (Storage's key characters). */
const KEY_CHARACTERS = /^[\p{L}\p{N}_/!.*'()&$=@;:+,? -]+$/u;
/** Bucket names: the same characters without `/`, at most 100 of them. */
const BUCKET_CHARACTERS = /^[\p{L}\p{N}_!.*'()&$=@;:+,? -]+$/u;
const BUCKET_NAME_MAX = 100;

/**
 * Whether Storage accepts the key. The local stack keeps objects in folders named after the key's
 * segments, so it also refuses empty, `.` and `..` segments (Storage's S3 backend takes them).
 */
export function isValidKey(key: string): boolean {
  if (!KEY_CHARACTERS.test(key)) return false;
  return key.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

export function isValidBucketName(name: string): boolean {
  return (
    name.length <= BUCKET_NAME_MAX && BUCKET_CHARACTERS.test(name) && name !== '.' && name !== '..'
  );
}

export function checkKey(key: string): string {
  if (!isValidKey(key)) throw errors.invalidKey(key);
  return key;
}

export function checkBucketName(name: string): string {
  if (!isValidBucketName(name)) throw errors.invalidBucketName(name);
  return name;
}
