// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { visibleText } from './visible-text.ts';

describe('visibleText', () => {
  it('shows a right-to-left override as a token instead of obeying it', () => {
    // Displayed raw, 'Invoice\u202Efdp.exe' reads as 'Invoiceexe.pdf'.
    expect(visibleText('Invoice\u202Efdp.exe')).toBe('Invoice[U+202E]fdp.exe');
  });

  it.each([
    ['\u202A', '[U+202A]'],
    ['\u202B', '[U+202B]'],
    ['\u202C', '[U+202C]'],
    ['\u202D', '[U+202D]'],
    ['\u202E', '[U+202E]'],
    ['\u2066', '[U+2066]'],
    ['\u2067', '[U+2067]'],
    ['\u2068', '[U+2068]'],
    ['\u2069', '[U+2069]'],
    ['\u200E', '[U+200E]'],
    ['\u200F', '[U+200F]'],
    ['\u061C', '[U+061C]'],
  ])('replaces %j with %s', (control, token) => {
    expect(visibleText(`a${control}b`)).toBe(`a${token}b`);
  });

  it('replaces every one of them, however many', () => {
    expect(visibleText('\u2067\u202Eab\u202C\u2069')).toBe('[U+2067][U+202E]ab[U+202C][U+2069]');
  });

  it('leaves other text alone, right-to-left scripts and emoji included', () => {
    for (const text of ['Ada Lovelace', 'שלום', 'مرحبا', 'Zoë 👩‍💻', '', '[U+202E]', '\u200D']) {
      expect(visibleText(text)).toBe(text);
    }
  });
});
