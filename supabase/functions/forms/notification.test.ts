// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../_shared/html.ts';
import { localTime } from './local-time.ts';
import { composeNotification, messageLink } from './notification.ts';

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

describe('notification: the message in the dashboard, in the owner’s time', () => {
  it('links to the message’s drawer on the site, in text and as a button with the raw link', () => {
    const n = composeNotification({ ...base, siteUrl: 'https://forms.example.com/' });
    const link = `https://forms.example.com/dashboard/forms?tab=messages&message=${base.entryId}`;
    expect(messageLink('https://forms.example.com', base.entryId)).toBe(link);
    expect(n.text.split('\n')).toContain(`Open it in your dashboard: ${link}`);
    const escaped = link.replace(/&/g, '&amp;');
    expect(n.html).toContain(`<a href="${escaped}"`);
    expect(n.html).toContain('>Open in your dashboard</a>');
    expect(n.html).toContain(`Or open this link: ${escaped}`);
  });

  it('has no link without SITE_URL', () => {
    const n = composeNotification(base);
    expect(n.text).not.toContain('dashboard/forms');
    expect(n.html).not.toContain('<a ');
  });

  it('states the time in the owner’s zone, naming the zone and its offset', () => {
    const n = composeNotification({ ...base, timeZone: 'Europe/Berlin' });
    expect(n.text.split('\n')).toContain(
      'Received Fri, 2 Jan 2026, 04:04:05 (Europe/Berlin, UTC+01:00).',
    );
    expect(n.html).toContain(
      'Received <strong>Fri, 2 Jan 2026, 04:04:05</strong> (Europe/Berlin, UTC+01:00).',
    );
    const ny = composeNotification({ ...base, timeZone: 'America/New_York' });
    expect(ny.text).toContain('Received Thu, 1 Jan 2026, 22:04:05 (America/New_York, UTC-05:00).');
  });

  it('falls back to UTC, saying so, without a zone or with one it does not know', () => {
    for (const timeZone of [null, undefined, 'Mars/Olympus_Mons', 'UTC']) {
      const n = composeNotification({ ...base, timeZone });
      expect(n.text).toContain('Received Fri, 2 Jan 2026, 03:04:05 (UTC).');
    }
  });

  it('says why the mail came, names the entry, and keeps the HTML part escaped', () => {
    const n = composeNotification({
      ...base,
      formName: 'Pay<b>ments\u202E',
      siteUrl: 'https://forms.example.com',
    });
    expect(n.text).toContain(`Entry ${base.entryId}.`);
    expect(n.text).toContain('because the form "Pay<b>ments[U+202E]" sends its messages');
    expect(n.html).toContain('<strong>Pay&lt;b&gt;ments[U+202E]</strong> sends its messages');
    expect(n.html).not.toContain('<b>');
    expect(n.html).toContain('<html lang="en">');
  });
});

describe('local time', () => {
  const at = new Date('2026-07-01T12:00:00Z');
  it('names the zone with its offset on that day (summer time included)', () => {
    expect(localTime(at, 'Europe/Berlin').text).toBe(
      'Wed, 1 Jul 2026, 14:00:00 (Europe/Berlin, UTC+02:00)',
    );
    expect(localTime(at, 'Asia/Kolkata').zone).toBe('Asia/Kolkata, UTC+05:30');
    expect(localTime(at, 'Europe/London').zone).toBe('Europe/London, UTC+01:00');
    expect(localTime(new Date('2026-01-01T12:00:00Z'), 'Europe/London').zone).toBe(
      'Europe/London, UTC+00:00',
    );
  });

  it('formats a zone once per second: moments in the same second share it, the next is new', () => {
    const first = localTime(new Date('2026-07-01T12:00:05.100Z'), 'Europe/Berlin');
    expect(localTime(new Date('2026-07-01T12:00:05.900Z'), 'Europe/Berlin')).toBe(first);
    expect(localTime(new Date('2026-07-01T12:00:05.500Z'), 'Asia/Kolkata').when).toBe(
      'Wed, 1 Jul 2026, 17:30:05',
    );
    expect(localTime(new Date('2026-07-01T12:00:06.000Z'), 'Europe/Berlin').when).toBe(
      'Wed, 1 Jul 2026, 14:00:06',
    );
  });

  it('uses UTC for no zone and for one this runtime does not know', () => {
    expect(localTime(at, null)).toMatchObject({ zone: 'UTC', timeZone: 'UTC' });
    expect(localTime(at, 'Not/AZone')).toMatchObject({
      text: 'Wed, 1 Jul 2026, 12:00:00 (UTC)',
      timeZone: 'UTC',
    });
  });
});

describe("a notification's files", () => {
  const files = [
    { name: 'photo <b>.png', size: 68, kind: 'image' },
    { name: 'cv.pdf', size: 3 * 1024 * 1024 + 100, kind: 'pdf' },
  ];

  it('names each file with its size and kind, and sends to the dashboard for them', () => {
    const n = composeNotification({ ...base, files, siteUrl: 'https://tinyback.example' });
    expect(n.text).toContain(
      '2 files attached (open the message in your dashboard to download them):\n  photo <b>.png (68 B, image)\n  cv.pdf (3.0 MB, pdf)',
    );
    expect(n.html).toContain('<li>photo &lt;b&gt;.png (68 B, image)</li>');
    expect(n.html).not.toContain('<b>.png');
    // Never a link to a file: only the message's page in the dashboard.
    expect(n.text).not.toMatch(/storage\/v1|submission-files/);
    expect(n.html).not.toMatch(/storage\/v1|submission-files/);
  });

  it('says nothing of files when there are none', () => {
    expect(composeNotification(base).text).not.toContain('attached');
  });
});
