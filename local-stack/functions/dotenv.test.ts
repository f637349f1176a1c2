import { describe, expect, it } from 'vitest';
import { parseDotenv } from './dotenv.ts';

describe('parseDotenv', () => {
  it('reads plain, quoted, exported and commented lines', () => {
    const env = parseDotenv(
      [
        '# a comment',
        'PLAIN=value',
        'SPACED = padded   # trailing comment',
        'export EXPORTED=yes',
        'DOUBLE="two\\nlines # not a comment"',
        "SINGLE='raw\\n'",
        'EMPTY=',
        'MULTI="first',
        'second"',
        'not a line',
      ].join('\r\n'),
    );
    expect(env).toEqual({
      PLAIN: 'value',
      SPACED: 'padded',
      EXPORTED: 'yes',
      DOUBLE: 'two\nlines # not a comment',
      SINGLE: 'raw\\n',
      EMPTY: '',
      MULTI: 'first\nsecond',
    });
  });
});
