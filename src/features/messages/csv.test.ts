import { describe, expect, it } from 'vitest';
import {
  CSV_BOM,
  csvField,
  extraColumns,
  fieldCell,
  filesCell,
  messagesToCsv,
  neutralizeFormula,
} from './csv';
import { FORM_BETA, makeFile, makeMessage } from './testing/fixtures';

/** The file's lines without the BOM and the final line break. */
function lines(csv: string): string[] {
  return csv.slice(CSV_BOM.length).replace(/\r\n$/, '').split('\r\n');
}

describe('csvField', () => {
  it('quotes every field, plain and empty ones too', () => {
    expect(csvField('hello world')).toBe('"hello world"');
    expect(csvField('')).toBe('""');
  });

  it('keeps a comma, quote or line break inside its cell and doubles the quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line one\nline two')).toBe('"line one\nline two"');
    expect(csvField('cr\rlf')).toBe('"cr\rlf"');
  });

  it('quotes a semicolon, the separator Excel uses in de, fr, nl, it, es…', () => {
    expect(csvField('ok;fine')).toBe('"ok;fine"');
  });

  it('neutralises a formula after a `;` or `,` inside a value, where such a locale splits', () => {
    expect(csvField('ok;=1+1;')).toBe(`"ok;'=1+1;"`);
    expect(csvField("ok;=cmd|' /C calc'!A0")).toBe(`"ok;'=cmd|' /C calc'!A0"`);
    expect(csvField('a,+1,-2;@x')).toBe(`"a,'+1,'-2;'@x"`);
    expect(csvField('a;\tb,\rc')).toBe(`"a;'\tb,'\rc"`);
  });

  it('neutralises a formula behind quotes after a separator (a quoted cell once split)', () => {
    expect(csvField('ok;"=1+1"')).toBe(`"ok;""'=1+1"""`);
  });
});

describe('neutralizeFormula', () => {
  it.each(['=1+1', '+41 79', '-2', '@SUM(A1)', '\tcmd', '\rcmd'])(
    'prefixes %j with a quote',
    (value) => {
      expect(neutralizeFormula(value)).toBe(`'${value}`);
    },
  );

  it('leaves other text alone, including formula characters inside a part', () => {
    expect(neutralizeFormula('a=b')).toBe('a=b');
    expect(neutralizeFormula(' =1')).toBe(' =1');
    expect(neutralizeFormula('a; =1, -2')).toBe('a; =1, -2');
    expect(neutralizeFormula('')).toBe('');
  });

  it('prefixes each `;`- or `,`-separated part that starts like a formula', () => {
    expect(neutralizeFormula('ok;=1+1;')).toBe("ok;'=1+1;");
    expect(neutralizeFormula('=a,=b;=c')).toBe("'=a,'=b;'=c");
    expect(neutralizeFormula('1,-2')).toBe("1,'-2");
  });

  it('is applied before quoting, so a dangerous quoted cell is neutralised too', () => {
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
  });
});

describe('extraColumns', () => {
  it('lists each extra field once, in order of first appearance', () => {
    const messages = [
      makeMessage({ data: { company: 'ACME', phone: '1' } }),
      makeMessage({ data: {} }),
      makeMessage({ data: { budget: 5, company: 'Initech' } }),
    ];
    expect(extraColumns(messages)).toEqual(['company', 'phone', 'budget']);
  });

  it("takes each message's fields in the order sent, not the order data has them", () => {
    const messages = [
      makeMessage({ data: { a: '1', zeta: '2' }, field_order: ['zeta', 'a'] }),
      makeMessage({ data: { b: '3', a: '4', mid: '5' }, field_order: ['mid', 'a', 'b'] }),
    ];
    expect(extraColumns(messages)).toEqual(['zeta', 'a', 'mid', 'b']);
  });
});

describe('messagesToCsv', () => {
  it('starts with a BOM, ends lines with CRLF and has the header row', () => {
    const csv = messagesToCsv([]);
    expect(csv.startsWith(CSV_BOM)).toBe(true);
    expect(csv).toBe(`${CSV_BOM}"Date","Form","Name","Email","Message","Files"\r\n`);
  });

  it('writes one row per message with ISO dates and the form name', () => {
    const csv = messagesToCsv([
      makeMessage({
        created_at: '2026-11-24T14:47:16.433395+02:00',
        name: 'Zoë',
        email: 'zoe@example.com',
        message: 'Grüße, "friends"\nbye',
      }),
    ]);
    expect(lines(csv)).toEqual([
      '"Date","Form","Name","Email","Message","Files"',
      '"2026-11-24T12:47:16.433Z","Contact","Zoë","zoe@example.com","Grüße, ""friends""\nbye",""',
    ]);
  });

  it('leaves a missing name and e-mail empty', () => {
    const csv = messagesToCsv([
      makeMessage({ created_at: '2026-01-01T00:00:00Z', name: null, email: null, message: 'hi' }),
    ]);
    expect(lines(csv)[1]).toBe('"2026-01-01T00:00:00.000Z","Contact","","","hi",""');
  });

  it('adds a column per custom field, joins a list with "; " and writes JSON for other values', () => {
    const csv = messagesToCsv([
      makeMessage({ created_at: '2026-01-01T00:00:00Z', data: { company: 'ACME' } }),
      makeMessage({
        created_at: '2026-01-02T00:00:00Z',
        data: { tags: ['a', 'b'], company: 'Initech', size: 12, nested: { x: [1] } },
        field_order: ['tags', 'company', 'size', 'nested'],
      }),
    ]);
    const [header, first, second] = lines(csv);
    expect(header).toBe(
      '"Date","Form","Name","Email","Message","Files","company","tags","size","nested"',
    );
    expect(first.endsWith(',"Hello there","","ACME","","",""')).toBe(true);
    expect(second.endsWith(',"Hello there","","Initech","a; b","12","{""x"":[1]}"')).toBe(true);
  });

  it('neutralises each item of a list, quotes and all', () => {
    expect(fieldCell(['fine', '=1+1', '"@x"', 'a,b'])).toBe(`fine; '=1+1; "'@x"; a,b`);
    const csv = messagesToCsv([
      makeMessage({ created_at: '2026-01-01T00:00:00Z', data: { pick: ['-2', 'say "hi"'] } }),
    ]);
    expect(lines(csv)[1].endsWith(`,"'-2; say ""hi"""`)).toBe(true);
  });

  it('neutralises formulas in every cell, headers included', () => {
    const csv = messagesToCsv([
      makeMessage({
        created_at: '2026-01-01T00:00:00Z',
        name: '=cmd|calc',
        email: '@evil',
        message: '+1',
        data: { '=x': '-5' },
      }),
    ]);
    expect(lines(csv)).toEqual([
      `"Date","Form","Name","Email","Message","Files","'=x"`,
      `"2026-01-01T00:00:00.000Z","Contact","'=cmd|calc","'@evil","'+1","","'-5"`,
    ]);
  });

  it('keeps a `;`-separated value in one cell and neutralises each of its parts', () => {
    const csv = messagesToCsv([
      makeMessage({
        created_at: '2026-01-01T00:00:00Z',
        name: "ok;=cmd|' /C calc'!A0",
        message: 'ok;=1+1;',
        data: { 'a;@b': 'x;-1' },
      }),
    ]);
    expect(lines(csv)).toEqual([
      `"Date","Form","Name","Email","Message","Files","a;'@b"`,
      `"2026-01-01T00:00:00.000Z","Contact","ok;'=cmd|' /C calc'!A0","ada@example.com","ok;'=1+1;","","x;'-1"`,
    ]);
  });

  it('names the files in the order sent, joined by "; ", each part neutralised', () => {
    const csv = messagesToCsv([
      makeMessage({
        created_at: '2026-01-01T00:00:00Z',
        message: 'see attached',
        files: [
          makeFile({ position: 2, name: '=sum.xlsx' }),
          makeFile({ position: 1, name: 'cv; final.pdf' }),
        ],
      }),
    ]);
    expect(lines(csv)[1]).toBe(
      `"2026-01-01T00:00:00.000Z","Contact","Ada Lovelace","ada@example.com","see attached","cv; final.pdf; '=sum.xlsx"`,
    );
    expect(filesCell([])).toBe('');
  });

  it('takes a form name from the options when the row has none', () => {
    const row = makeMessage({
      created_at: '2026-01-01T00:00:00Z',
      form: null,
      form_id: FORM_BETA.id,
    });
    const csv = messagesToCsv([row], {
      formName: (id) => (id === FORM_BETA.id ? FORM_BETA.name : undefined),
    });
    expect(lines(csv)[1]).toContain(',"Beta signup",');
  });

  it('adds the page and the referrer when a message carries them (the analytics tracker)', () => {
    const at = { created_at: '2026-01-01T00:00:00Z', message: 'hi', data: { plan: 'pro' } };
    const csv = messagesToCsv([
      makeMessage({ ...at, source_page: '/contact', source_referrer: 'news.example' }),
      makeMessage({ ...at, source_page: '/=cmd', source_referrer: null }),
      makeMessage(at),
    ]);
    const rows = lines(csv);
    expect(rows[0]).toBe('"Date","Form","Name","Email","Message","Files","Page","Referrer","plan"');
    expect(rows[1]).toContain(',"","/contact","news.example","pro"');
    expect(rows[2]).toContain(',"","/=cmd","(direct)","pro"');
    expect(rows[3]).toContain(',"","","","pro"');
  });
});
