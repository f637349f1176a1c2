// Input rules GoTrue applies to e-mail addresses and passwords, with its messages.
import { validationFailed, weakPassword } from './errors.ts';

// GoTrue's e-mail pattern (the HTML living standard's), applied to the lower-cased address.
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Returns the address trimmed and lower-cased, as GoTrue stores it, or throws validation_failed. */
export function validateEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (!email) throw validationFailed('An email address is required');
  if (email.length > 255) throw validationFailed('An email address is too long');
  if (!EMAIL_PATTERN.test(email))
    throw validationFailed('Unable to validate email address: invalid format');
  return email;
}

/** bcrypt only looks at the first 72 bytes, so GoTrue refuses longer passwords outright. */
const BCRYPT_MAX_BYTES = 72;

export function checkPasswordStrength(password: string, minimumLength: number) {
  // GoTrue counts characters (runes), not bytes, for the minimum.
  if ([...password].length < minimumLength) throw weakPassword(minimumLength);
  if (Buffer.byteLength(password) > BCRYPT_MAX_BYTES) {
    throw validationFailed(`Password cannot be longer than ${BCRYPT_MAX_BYTES} characters`);
  }
}
