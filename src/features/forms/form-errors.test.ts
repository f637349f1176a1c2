import { describe, expect, it } from 'vitest';
import { describeFormError } from './form-errors';

const pgError = (code: string, message: string, details = '', hint: string | null = null) => ({
  code,
  message,
  details,
  hint,
});

describe('describeFormError', () => {
  it('names the field a check constraint refused', () => {
    expect(
      describeFormError(
        pgError(
          '23514',
          'new row for relation "forms" violates check constraint "forms_allowed_origin_format"',
        ),
        'create the form',
      ),
    ).toEqual({
      field: 'allowed_origin',
      message: expect.stringContaining('https://your-site.com'),
    });
    expect(
      describeFormError(
        pgError('23514', 'new row violates check constraint "forms_target_email_format"'),
        'x',
      ).field,
    ).toBe('target_email');
    expect(
      describeFormError(
        pgError('23514', 'violates check constraint "forms_redirect_url_format"'),
        'x',
      ).field,
    ).toBe('redirect_url');
    expect(
      describeFormError(pgError('23514', 'violates check constraint "forms_name_length"'), 'x')
        .field,
    ).toBe('name');
  });

  it('explains permission, missing rows, duplicates and network failures', () => {
    expect(describeFormError(pgError('42501', 'permission denied'), 'save the form').message).toBe(
      'You are not allowed to save the form. Your session may have ended: sign in again.',
    );
    expect(describeFormError(pgError('PGRST116', 'no rows'), 'save').message).toBe(
      'This form no longer exists.',
    );
    expect(describeFormError(pgError('23505', 'duplicate key'), 'create').message).toMatch(
      /already exists/,
    );
    expect(
      describeFormError(pgError('23505', 'This form id was used before.'), 'create').message,
    ).toBe('This form id was used before and cannot be used again. Please try again.');
    expect(describeFormError(new TypeError('Failed to fetch'), 'delete the form').message).toBe(
      'Could not reach the server to delete the form. Check your connection and try again.',
    );
  });

  it('shows the database’s sentence when an account has created too many forms', () => {
    const sentence = 'You have created too many forms recently. Try again in an hour.';
    expect(
      describeFormError(
        pgError(
          'PT429',
          sentence,
          'At most 20 forms an hour and 100 a day per account.',
          'form_create_limit',
        ),
        'create the form',
      ),
    ).toEqual({ message: sentence });
    // Only the hint's own sentence passes: another PT429 never shows a raw message.
    expect(describeFormError(pgError('PT429', 'internal detail'), 'create the form').message).toBe(
      'Could not create the form. Please try again.',
    );
  });

  it("shows the plan's project limit as the database words it, on the origin field", () => {
    const sentence =
      'Your Free plan includes 1 project (one website each), and https://b.example would be another. Use the website of one of your forms, or move to a bigger plan (Settings → Plan and usage).';
    expect(
      describeFormError(
        pgError('PT403', sentence, 'Projects in use: 1 of 1.', 'plan_project_limit'),
        'create the form',
      ),
    ).toEqual({ message: sentence, field: 'allowed_origin' });
  });

  it('falls back to a plain sentence, never the raw error', () => {
    expect(
      describeFormError(pgError('XX000', 'internal: secret detail'), 'create the form'),
    ).toEqual({
      message: 'Could not create the form. Please try again.',
    });
    expect(describeFormError(undefined, 'create the form').field).toBeUndefined();
  });
});
