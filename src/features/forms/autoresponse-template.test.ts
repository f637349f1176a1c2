import { describe, expect, it } from 'vitest';
import { fieldsIn, fillTemplate, renderSubject } from './autoresponse-template';

describe('autoresponse template', () => {
  it('fills known fields, empties unknown ones and tolerates spaces inside the braces', () => {
    expect(
      fillTemplate('Hi {{name}}, re {{ form }}{{missing}}!', { name: 'Ada', form: 'Help' }),
    ).toBe('Hi Ada, re Help!');
  });

  it('never reads a value as a template', () => {
    expect(fillTemplate('{{message}}', { message: 'see {{email}}', email: 'x@y.z' })).toBe(
      'see {{email}}',
    );
  });

  it('keeps the subject on one line, capped, never empty', () => {
    expect(renderSubject('Re: {{topic}}', { topic: 'a\r\nBcc: b@c.d' })).toBe('Re: a Bcc: b@c.d');
    expect(renderSubject('{{x}}', {})).toBe('Thanks for your message');
    expect(renderSubject('{{x}}', { x: 'y'.repeat(300) })).toHaveLength(200);
  });

  it('lists the fields a template uses once each', () => {
    expect(fieldsIn('{{name}} {{ email }} {{name}}')).toEqual(['name', 'email']);
  });
});
