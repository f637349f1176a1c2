import { describe, expect, it } from 'vitest';
import { describeCaptchaError } from './captcha-texts';

describe('describeCaptchaError', () => {
  it('shows the database’s own sentences for a refused key', () => {
    expect(describeCaptchaError({ code: '22023', message: 'Enter the secret key.' })).toBe(
      'Enter the secret key.',
    );
  });

  it('says the form is gone for a 404 (PT404) as for the older P0002', () => {
    for (const code of ['PT404', 'P0002'])
      expect(describeCaptchaError({ code, message: 'This form no longer exists.' })).toBe(
        'This form no longer exists. Close the dialog and open it again.',
      );
  });

  it('words permission and anything else without the raw error', () => {
    expect(describeCaptchaError({ code: '42501' })).toBe(
      'You are not allowed to change this form’s CAPTCHA.',
    );
    expect(describeCaptchaError({ code: 'XX000', message: 'internal detail' })).toBe(
      'Could not save the CAPTCHA. Check your connection and try again.',
    );
  });
});
