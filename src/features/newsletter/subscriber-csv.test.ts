import { describe, expect, it } from 'vitest';
import { parseCsvRecords, parseSubscriberCsv } from './subscriber-csv';

const rowsOf = (text: string) => {
  const result = parseSubscriberCsv(text);
  if (!result.ok) throw new Error(result.error);
  return result.rows;
};

describe('parseSubscriberCsv', () => {
  it('reads the email and name columns in any order and case, ignoring the others', () => {
    expect(
      rowsOf('Name,Company,EMAIL\nAda,Engines,ada@example.com\nBob,,bob@example.com\n'),
    ).toEqual([
      { row: 2, email: 'ada@example.com', name: 'Ada' },
      { row: 3, email: 'bob@example.com', name: 'Bob' },
    ]);
    expect(rowsOf('e-mail address\nada@example.com')).toEqual([
      { row: 2, email: 'ada@example.com', name: '' },
    ]);
  });

  it('reads quoted fields: separators, doubled quotes and line breaks inside quotes', () => {
    const text =
      'email,name\r\n"ada@example.com","Lovelace, Ada"\r\nbob@example.com,"Bob ""the builder"""\r\n' +
      'cy@example.com,"Cy\r\nSecond line"\r\ndee@example.com,Dee\r\n';
    expect(rowsOf(text)).toEqual([
      { row: 2, email: 'ada@example.com', name: 'Lovelace, Ada' },
      { row: 3, email: 'bob@example.com', name: 'Bob "the builder"' },
      { row: 4, email: 'cy@example.com', name: 'Cy\r\nSecond line' },
      // The row starts on the file's sixth line: the quoted field above spans two.
      { row: 6, email: 'dee@example.com', name: 'Dee' },
    ]);
  });

  it('takes CRLF, LF and CR line ends, a byte-order mark and blank lines', () => {
    expect(rowsOf('\uFEFFemail\rada@example.com\r\n\nbob@example.com')).toEqual([
      { row: 2, email: 'ada@example.com', name: '' },
      { row: 4, email: 'bob@example.com', name: '' },
    ]);
  });

  it('finds the separator of spreadsheet apps in `;` and tab locales', () => {
    expect(rowsOf('name;email\n"Doe; Jane";jane@example.com')).toEqual([
      { row: 2, email: 'jane@example.com', name: 'Doe; Jane' },
    ]);
    expect(rowsOf('email\tname\njane@example.com\tJane')).toEqual([
      { row: 2, email: 'jane@example.com', name: 'Jane' },
    ]);
  });

  it('keeps rows the database will judge (short or bad addresses), trims spaces, drops empty rows', () => {
    expect(rowsOf('email,name\n  not-an-address , Ann \n,\n,Zed\n')).toEqual([
      { row: 2, email: 'not-an-address', name: 'Ann' },
      { row: 4, email: '', name: 'Zed' },
    ]);
  });

  it('says what is wrong with a file it cannot read', () => {
    expect(parseSubscriberCsv('')).toEqual({ ok: false, error: 'The file is empty.' });
    expect(parseSubscriberCsv('ada@example.com\nbob@example.com')).toMatchObject({
      ok: false,
      error: expect.stringContaining('"email"'),
    });
  });

  it('answers a header without rows with no rows', () => {
    expect(rowsOf('email,name\r\n')).toEqual([]);
  });
});

describe('parseCsvRecords', () => {
  it('keeps empty fields and an unterminated last line', () => {
    expect(parseCsvRecords('a,,c\n"x"', ',')).toEqual([
      { line: 1, fields: ['a', '', 'c'] },
      { line: 2, fields: ['x'] },
    ]);
  });
});
