// The preview fills a reply as the database does. Each expected value below is what Postgres
// answers (collation "C", as the local stack and the migrations' tests run it) for
// private.mail_label, private.autoresponse_values and private.fill_merge_fields on the same input.
import { describe, expect, it } from 'vitest';
import { AUTORESPONDER } from '../../../supabase/functions/_shared/limits';
import {
  autoresponseValues,
  defaultFromName,
  fieldsIn,
  FROM_NAME_FORBIDDEN,
  FROM_NAME_MAX,
  fillTemplate,
  mailLabel,
  MAX_MERGE_FIELDS,
  MERGE_FIELDS,
  mergeFieldCount,
  renderSubject,
  unsentFieldsIn,
} from './autoresponse-template';

describe('mailLabel (private.mail_label)', () => {
  it.each([
    ['Verify at https://evil.example now @ once', 'Verify at now once'],
    ['evil.com/login bob@x.y', 'bob x.y'],
    ['J.R.R. Tolkien', 'J.R.R. Tolkien'],
    ['Note: hello', 'Note: hello'],
    ['Ada Lovelace', 'Ada Lovelace'],
    ['  Ada\t\nLovelace  ', 'Ada Lovelace'],
    ['WWW.EVIL.COM click', 'click'],
    ['www。evil now', 'now'],
    ['evil．com go', 'go'],
    ['mailto:bob@example.com Bob', 'Bob'],
    ['tel:+123 call', 'call'],
    ['x,evil:foo', 'x,'],
    ['Dr. No', 'Dr. No'],
    ['1.2.3.4', '1.2.3.4'],
    ['Ｊｏｅ ＠ evil', 'Ｊｏｅ evil'],
    ['joe@@example', 'joe example'],
    ['Invoice\u202efdp.exe', 'Invoice'],
    ['line1\r\nline2\u2028line3', 'line1 line2 line3'],
    // Only ASCII whitespace collapses, and only ASCII letters fold case, as in Postgres.
    ['x\u00a0y\u3000z', 'x\u00a0y\u3000z'],
    ['Kelvin\u212a.com \u017fx.co', 'Kelvin\u212a.com'],
    ['Ünïcödé Nämé', 'Ünïcödé Nämé'],
  ])('%j → %j', (input, expected) => {
    expect(mailLabel(input, AUTORESPONDER.nameChars)).toBe(expected);
  });

  it('keeps at most 50 characters, counted as Postgres counts them', () => {
    expect(mailLabel('x'.repeat(80), 50)).toBe('x'.repeat(50));
    expect(mailLabel('😀'.repeat(60), 50)).toBe('😀'.repeat(50));
    expect(mailLabel(null, 50)).toBe('');
  });
});

describe('autoresponseValues (private.autoresponse_values)', () => {
  it('fills name, email and form only, each cleaned', () => {
    expect(
      autoresponseValues({
        name: 'Verify at https://evil.example now',
        address: 'ADA@Example.COM',
        formName: 'Support\u0007 <desk>\u202e',
      }),
    ).toEqual({ name: 'Verify at now', email: 'ada@example.com', form: 'Support  <desk>' });
    expect(
      autoresponseValues({ name: null, address: 'Ä@x.de', formName: `  ${'f'.repeat(120)}` }),
    ).toEqual({ name: '', email: 'Ä@x.de', form: 'f'.repeat(100) });
  });
});

describe('fillTemplate (private.fill_merge_fields)', () => {
  const values = { name: 'Ada', email: 'ada@example.com', form: 'Help {{email}}' };

  it('fills known fields, empties unknown ones and tolerates spaces inside the braces', () => {
    expect(fillTemplate('Hi {{name}}, re {{ form }}{{missing}}!', values)).toBe(
      'Hi Ada, re Help {{email}}!',
    );
    expect(fillTemplate('{{ name\t}} {{Name}} {{message}} {{ email }}', values)).toBe(
      'Ada   ada@example.com',
    );
    expect(fillTemplate('{{{name}}} {{name}}}', values)).toBe('{Ada} Ada}');
    expect(fillTemplate('{{na me}} {{na-me.x_1}}', values)).toBe('{{na me}} ');
    // A no-break space is not whitespace to the database: no merge field.
    expect(fillTemplate('{{name}}\u00a0{{\u00a0name}}', values)).toBe('Ada\u00a0{{\u00a0name}}');
  });

  it('never reads a value as a template', () => {
    expect(fillTemplate('{{form}}', values)).toBe('Help {{email}}');
  });

  it('fills only the first 10 merge fields', () => {
    expect(MAX_MERGE_FIELDS).toBe(10);
    const template = '{{name}}'.repeat(1000);
    expect(mergeFieldCount(template)).toBe(1000);
    expect(fillTemplate(template, values)).toBe('Ada'.repeat(10));
    const numbered = Array.from({ length: 12 }, (_, i) => `{{name}}${i}`).join(' ');
    expect(fillTemplate(numbered, values)).toBe(
      'Ada0 Ada1 Ada2 Ada3 Ada4 Ada5 Ada6 Ada7 Ada8 Ada9 10 11',
    );
  });
});

describe('renderSubject (queue_autoresponse)', () => {
  const values = { name: 'Ada', email: 'ada@example.com', form: 'Help' };

  it('keeps the subject on one line, capped, never empty', () => {
    expect(renderSubject('  Re:\r\n{{name}}  ', values)).toBe('Re: Ada');
    expect(renderSubject('{{x}}', values)).toBe('Thanks for your message');
    expect(renderSubject(' \t ', values)).toBe('Thanks for your message');
    expect(renderSubject('y'.repeat(300), values)).toHaveLength(200);
    expect(renderSubject('😀'.repeat(250), values)).toBe('😀'.repeat(200));
  });
});

describe('the merge fields a template uses', () => {
  it('come from the shared limits: name, email and form', () => {
    expect(MERGE_FIELDS).toEqual(['name', 'email', 'form']);
  });

  it('are listed once each, and those a reply leaves empty are named', () => {
    expect(fieldsIn('{{name}} {{ email }} {{name}}')).toEqual(['name', 'email']);
    expect(unsentFieldsIn('{{name}} {{message}} {{company}} {{message}} {{form}}')).toEqual([
      'message',
      'company',
    ]);
  });
});

describe('defaultFromName (private.autoresponse_from_name)', () => {
  it('is the form’s name as a label, without angle brackets, then “via tinyback”', () => {
    // The same name the endpoint test reads from a real reply (tests/endpoint/autoresponder.test.ts).
    expect(defaultFromName('Support <desk>')).toBe('Support desk via tinyback');
    expect(defaultFromName('Orders @ shop.example.com')).toBe('Orders via tinyback');
    expect(defaultFromName('<>')).toBe('tinyback');
    const long = defaultFromName('x'.repeat(80));
    expect(long).toBe(`${'x'.repeat(47)} via tinyback`);
    expect(long.length).toBe(FROM_NAME_MAX);
    expect(FROM_NAME_FORBIDDEN.test(defaultFromName('a\u202Eb <c@d>'))).toBe(false);
  });
});
