// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../_shared/html.ts';
import { composeNotification } from './notification.ts';

const base = {
  formName: 'Contact',
  targetEmail: 'owner@example.com',
  entryId: '11111111-1111-1111-1111-111111111111',
  receivedAt: new Date('2026-01-02T03:04:05Z'),
  fields: [
    ['name', 'Ada <script>'],
    ['message', 'line 1\nline "2" & more'],
  ] as [string, string][],
  subject: null,
  replyTo: 'ada@example.com',
};

describe('notification e-mail', () => {
  it('uses the default subject, the recipient and Reply-To', () => {
    const n = composeNotification(base);
    expect(n).toMatchObject({
      to: 'owner@example.com',
      subject: 'New submission: Contact',
      replyTo: 'ada@example.com',
    });
  });

  it('lists every field in order in text and escaped HTML', () => {
    const n = composeNotification(base);
    expect(n.text.indexOf('name: Ada <script>')).toBeLessThan(
      n.text.indexOf('message:\n  line 1\n  line "2" & more'),
    );
    expect(n.html).toContain('Ada &lt;script&gt;');
    expect(n.html).toContain('line &quot;2&quot; &amp; more');
    expect(n.html).not.toContain('<script>');
  });

  it('never lets CR/LF into a header', () => {
    const n = composeNotification({
      ...base,
      formName: 'Evil\r\nBcc: x@y.z',
      subject: 'Hi\r\nBcc: victim@example.com',
      replyTo: 'a@b.co\r\nBcc: c@d.co',
      targetEmail: 'owner@example.com\nBcc: x@y.z',
    });
    for (const h of [n.subject, n.to, n.replyTo ?? '']) expect(h).not.toMatch(/[\r\n]/);
    expect(n.subject).toBe('Hi Bcc: victim@example.com');
    expect(n.replyTo).toBeNull();
  });

  it('escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    );
  });

  it('never lets a field name or value forge a line of the plain-text part', () => {
    const n = composeNotification({
      ...base,
      fields: [
        ['multi\nline name', 'x'],
        ['topic\u2028Reply to: evil@example.com', 'y'],
        ['note', 'first\u2028Entry forged\u2029second'],
      ],
    });
    const lines = n.text.split('\n');
    expect(lines).toContain('multi line name: x');
    expect(lines).toContain('topic Reply to: evil@example.com: y');
    expect(lines).toContain('note:');
    expect(lines).toContain('  Entry forged');
    // Every line of the field list is either `name: value`, `name:` or an indented continuation.
    for (const line of lines.slice(2, 7)) expect(line).toMatch(/^(\S[^:]*:( .*)?| {2}.*)$/);
    expect(n.text).not.toMatch(/[\u2028\u2029]/);
    expect(n.html).toContain('multi line name');
  });

  it('shows bidirectional controls in the subject, form name, field names and sender as tokens', () => {
    // Obeyed, U+202E would show 'Eve\u202Efdp.exe' as 'Eveexe.pdf' and reorder what follows it.
    const n = composeNotification({
      ...base,
      formName: 'Pay\u2066ments\u2069',
      subject: 'Invoice\u202Efdp.exe',
      fields: [
        ['name', 'Eve\u202Efdp.exe'],
        ['email', 'eve\u200F@example.com'],
        ['ref\u202E', 'A1'],
        ['message', 'مرحبا\u200F ok'],
      ],
    });
    expect(n.subject).toBe('Invoice[U+202E]fdp.exe');
    expect(n.text).toContain('New submission to the form "Pay[U+2066]ments[U+2069]".');
    const lines = n.text.split('\n');
    expect(lines).toContain('name: Eve[U+202E]fdp.exe');
    expect(lines).toContain('email: eve[U+200F]@example.com');
    expect(lines).toContain('ref[U+202E]: A1');
    expect(n.html).toContain('<strong>Pay[U+2066]ments[U+2069]</strong>');
    expect(n.html).toContain('Eve[U+202E]fdp.exe');
    expect(n.html).toContain('ref[U+202E]');
    // The message itself is the visitor's text in any script: kept as sent.
    expect(lines).toContain('message: مرحبا\u200F ok');

    const untitled = composeNotification({ ...base, formName: 'Pay\u202Eslip', subject: null });
    expect(untitled.subject).toBe('New submission: Pay[U+202E]slip');
  });
});
