import { describe, expect, it } from 'vitest';
import { AuthApiError, AuthWeakPasswordError } from '@supabase/supabase-js';
import { REGISTER_ERRORS, registerErrorMessage } from './register-errors';

describe('registerErrorMessage', () => {
  it('maps the server codes of the error catalogue', () => {
    expect(
      registerErrorMessage(new AuthApiError('User already registered', 422, 'user_already_exists')),
    ).toBe('This email is already in use.');
    expect(
      registerErrorMessage(
        new AuthApiError('Email address "x" is invalid', 400, 'email_address_invalid'),
      ),
    ).toBe('Invalid email address.');
    expect(
      registerErrorMessage(
        new AuthApiError(
          'Unable to validate email address: invalid format',
          400,
          'validation_failed',
        ),
      ),
    ).toBe('Invalid email address.');
    expect(
      registerErrorMessage(
        new AuthWeakPasswordError('Password should be at least 6 characters.', 422, ['length']),
      ),
    ).toBe('Password should be at least 6 characters.');
  });

  it('falls back to the generic message', () => {
    expect(
      registerErrorMessage(new AuthApiError('Signups not allowed', 422, 'signup_disabled')),
    ).toBe(REGISTER_ERRORS.unexpected);
    expect(
      registerErrorMessage(new AuthApiError('Missing password', 400, 'validation_failed')),
    ).toBe(REGISTER_ERRORS.unexpected);
    expect(registerErrorMessage(new TypeError('Failed to fetch'))).toBe(REGISTER_ERRORS.unexpected);
    expect(registerErrorMessage(undefined)).toBe(REGISTER_ERRORS.unexpected);
  });
});
