// Maps a sign-up error to the messages of the spec's error catalogue (§8).
import { PASSWORD_MIN_LENGTH } from '../../config/site';

export const REGISTER_ERRORS = {
  emailInUse: 'This email is already in use.',
  invalidEmail: 'Invalid email address.',
  weakPassword: `Password should be at least ${PASSWORD_MIN_LENGTH} characters.`,
  unexpected: 'An unexpected error occurred.',
} as const;

interface ErrorLike {
  code?: unknown;
  message?: unknown;
}

export function registerErrorMessage(error: unknown): string {
  const { code, message } = (typeof error === 'object' && error !== null ? error : {}) as ErrorLike;
  const text = typeof message === 'string' ? message.toLowerCase() : '';
  switch (code) {
    case 'user_already_exists':
    case 'email_exists':
      return REGISTER_ERRORS.emailInUse;
    case 'email_address_invalid':
      return REGISTER_ERRORS.invalidEmail;
    case 'weak_password':
      return REGISTER_ERRORS.weakPassword;
    case 'validation_failed':
      // The server uses one code for several input problems; only the e-mail one has a message here.
      return text.includes('email') ? REGISTER_ERRORS.invalidEmail : REGISTER_ERRORS.unexpected;
    default:
      return REGISTER_ERRORS.unexpected;
  }
}
