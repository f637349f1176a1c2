import { describe, expect, it } from 'vitest';
import { describeSettingError } from './setting-errors';

describe('describeSettingError', () => {
  it('names the refusal the database gave', () => {
    expect(describeSettingError({ code: '42501' }, 'save the rule')).toBe(
      'You are not allowed to save the rule.',
    );
    expect(describeSettingError({ code: '23503' }, 'save the rule')).toMatch(/no longer exists/);
    expect(describeSettingError({ code: '23514' }, 'save the rule')).toMatch(/out of range/);
  });

  it('says which check refused an autoresponder template', () => {
    expect(
      describeSettingError(
        {
          code: '23514',
          message:
            'new row for relation "form_autoresponders" violates check constraint "form_autoresponders_merge_fields"',
        },
        'save the autoresponder',
      ),
    ).toBe('Not saved: the subject and the reply may use at most 10 merge fields each.');
  });

  it('falls back to a retry hint for anything else', () => {
    expect(describeSettingError(new TypeError('fetch failed'), 'save the rule')).toBe(
      'Could not save the rule. Check your connection and try again.',
    );
  });
});
