// GoTrue's e-mail and password rules as the Auth stand-in applies them.
import { describe, expect, it } from 'vitest';
import { AuthError } from './errors.ts';
import { checkPasswordStrength, validateEmail } from './validate.ts';

const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AuthError)
      return { status: err.status, code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected an AuthError');
};

describe('validateEmail', () => {
  it('trims and lower-cases', () => {
    expect(validateEmail('  Ada@Example.COM ')).toBe('ada@example.com');
  });

  it('refuses empty and malformed addresses with GoTrue messages', () => {
    expect(failure(() => validateEmail(''))).toEqual({
      status: 400,
      code: 'validation_failed',
      message: 'An email address is required',
    });
    for (const bad of ['plain', 'a@', '@b.co', 'a b@c.co', 'a@-b.co']) {
      expect(failure(() => validateEmail(bad)).message).toBe(
        'Unable to validate email address: invalid format',
      );
    }
  });
});

describe('checkPasswordStrength', () => {
  it('counts characters, not bytes, against the minimum', () => {
    expect(() => checkPasswordStrength('ééééé', 6)).toThrow(AuthError);
    expect(() => checkPasswordStrength('éééééé', 6)).not.toThrow();
  });

  it('reports weak_password with the configured length', () => {
    expect(failure(() => checkPasswordStrength('abc', 8))).toEqual({
      status: 422,
      code: 'weak_password',
      message: 'Password should be at least 8 characters.',
    });
  });

  it('refuses passwords bcrypt would truncate', () => {
    expect(failure(() => checkPasswordStrength('x'.repeat(73), 6)).code).toBe('validation_failed');
  });
});
