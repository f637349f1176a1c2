import { describe, expect, it } from 'vitest';
import { ValidationError } from 'yup';
import {
  FORM_TEXT,
  cleanDetails,
  cleanSettings,
  formDetailsSchema,
  formSettingsSchema,
  isRedirectUrl,
} from './form-schema';

/** Every field's first problem, as Formik shows them. */
function problems(schema: typeof formDetailsSchema | typeof formSettingsSchema, values: object) {
  try {
    schema.validateSync(values, { abortEarly: false });
    return {};
  } catch (error) {
    const out: Record<string, string> = {};
    for (const inner of (error as ValidationError).inner) out[inner.path!] ??= inner.message;
    return out;
  }
}

const valid = {
  name: 'Contact',
  target_email: 'owner@example.com',
  allowed_origin: 'https://example.com',
};

describe('form details', () => {
  it('requires all three fields, spaces alone counting as empty', () => {
    expect(
      problems(formDetailsSchema, { name: '  ', target_email: '', allowed_origin: ' \t' }),
    ).toEqual({
      name: FORM_TEXT.nameRequired,
      target_email: FORM_TEXT.emailRequired,
      allowed_origin: FORM_TEXT.originRequired,
    });
  });

  it('checks the e-mail address as the database does', () => {
    for (const email of ['owner', 'owner@localhost', 'a b@example.com', 'owner@exa mple.com']) {
      expect(problems(formDetailsSchema, { ...valid, target_email: email }), email).toEqual({
        target_email: FORM_TEXT.emailInvalid,
      });
    }
    expect(
      problems(formDetailsSchema, { ...valid, target_email: 'O.Wner+x@Example.co.uk' }),
    ).toEqual({});
  });

  it('checks the origin after normalising it', () => {
    expect(problems(formDetailsSchema, { ...valid, allowed_origin: 'example.com' })).toEqual({
      allowed_origin: expect.stringMatching(/^Start with https:\/\//),
    });
    expect(
      problems(formDetailsSchema, { ...valid, allowed_origin: 'https://example.com/contact' }),
    ).toEqual({ allowed_origin: expect.stringMatching(/leave out the path/) });
    expect(
      problems(formDetailsSchema, { ...valid, allowed_origin: ' HTTPS://Example.com/ ' }),
    ).toEqual({});
  });

  it('returns trimmed values with the origin as stored', () => {
    expect(
      cleanDetails({
        name: '  Contact  ',
        target_email: ' owner@example.com ',
        allowed_origin: ' https://Example.com/ ',
      }),
    ).toEqual(valid);
  });
});

describe('form settings', () => {
  const values = { ...valid, notify_email: false, redirect_url: '' };

  it('keeps the switch and turns an empty thank-you address into null', () => {
    expect(cleanSettings(values)).toEqual({ ...valid, notify_email: false, redirect_url: null });
    expect(cleanSettings({ ...values, redirect_url: ' https://example.com/thanks?x=1 ' })).toEqual({
      ...valid,
      notify_email: false,
      redirect_url: 'https://example.com/thanks?x=1',
    });
  });

  it('accepts only absolute http(s) thank-you addresses', () => {
    for (const url of ['/thanks', 'example.com/thanks', 'javascript:alert(1)', 'https://a b.com']) {
      expect(problems(formSettingsSchema, { ...values, redirect_url: url }), url).toEqual({
        redirect_url: FORM_TEXT.redirectInvalid,
      });
    }
    expect(problems(formSettingsSchema, { ...values, redirect_url: 'x'.repeat(2001) })).toEqual({
      redirect_url: FORM_TEXT.redirectTooLong,
    });
  });

  it('isRedirectUrl follows the database constraint', () => {
    expect(isRedirectUrl('https://example.com')).toBe(true);
    expect(isRedirectUrl('http://localhost:5173/done#top')).toBe(true);
    expect(isRedirectUrl('https://')).toBe(false);
    expect(isRedirectUrl('ftp://example.com')).toBe(false);
  });
});
