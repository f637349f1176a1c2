// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { keyName, MAX_KEY_NAME, MAX_SHOWN_NAME, shownName } from './file-name.ts';

const KEY_RULE = /^[A-Za-z0-9 _!.*'()&$=@;:+,?-]+$/;

describe('shownName', () => {
  it('keeps an ordinary name as it is, Unicode included', () => {
    expect(shownName('report.pdf')).toBe('report.pdf');
    expect(shownName('Résumé 2026.docx')).toBe('Résumé 2026.docx');
    expect(shownName('简历.pdf')).toBe('简历.pdf');
  });

  it('drops folders, with either slash', () => {
    expect(shownName('../../etc/passwd')).toBe('passwd');
    expect(shownName('C:\\Users\\ada\\photo.png')).toBe('photo.png');
    expect(shownName('/')).toBe('file');
    expect(shownName('..')).toBe('file');
  });

  it('drops controls and the characters that reorder or hide text', () => {
    expect(shownName('Invoice\u202Efdp.exe')).toBe('Invoicefdp.exe');
    expect(shownName('a\u0000b\u0007c\u009b.txt')).toBe('abc.txt');
    expect(shownName('line\r\nbreak.txt')).toBe('linebreak.txt');
    expect(shownName('zero\u200bwidth\ufeff.txt')).toBe('zerowidth.txt');
    expect(shownName('\u2066x\u2069.png')).toBe('x.png');
  });

  it('trims dots and spaces at the ends and collapses spaces', () => {
    expect(shownName('  .hidden  name.txt. ')).toBe('hidden name.txt');
    expect(shownName('\u202e')).toBe('file');
    expect(shownName('')).toBe('file');
  });

  it('caps the length, keeping the extension', () => {
    const long = `${'a'.repeat(400)}.pdf`;
    const shown = shownName(long);
    expect([...shown]).toHaveLength(MAX_SHOWN_NAME);
    expect(shown.endsWith('.pdf')).toBe(true);
    // Counted in characters, not UTF-16 units: no half of an astral character is left.
    const emoji = shownName(`${'😀'.repeat(200)}.png`);
    expect([...emoji]).toHaveLength(MAX_SHOWN_NAME);
    expect(emoji).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    // An "extension" too long to be one is cut like the rest.
    expect([...shownName(`x.${'b'.repeat(300)}`)]).toHaveLength(MAX_SHOWN_NAME);
  });
});

describe('keyName', () => {
  it('folds accents and replaces what Storage keys refuse', () => {
    expect(keyName('Résumé 2026.docx')).toBe('Resume 2026.docx');
    expect(keyName('简历.pdf')).toBe('_.pdf');
    expect(keyName('a/b#c%d"e<f>.txt')).toBe('a_b_c_d_e_f_.txt');
    expect(keyName('ﬁle½.txt')).toBe('file1_2.txt');
  });

  it('never gives an empty or dots-only name', () => {
    expect(keyName('简历')).toBe('file');
    expect(keyName('...')).toBe('file');
    expect(keyName('')).toBe('file');
  });

  it('always fits the key rule and the cap, whatever it is given', () => {
    const samples = [
      shownName(`${'Ω'.repeat(300)}.png`),
      shownName('\u202Eexe.png'),
      'tab\tand\nnew line.txt',
      `${'x'.repeat(500)}.jpeg`,
      '😀😀😀.gif',
    ];
    for (const sample of samples) {
      const key = keyName(sample);
      expect(key, sample).toMatch(KEY_RULE);
      expect(key.length, sample).toBeLessThanOrEqual(MAX_KEY_NAME);
    }
    expect(keyName(`${'x'.repeat(500)}.jpeg`).endsWith('.jpeg')).toBe(true);
  });
});
