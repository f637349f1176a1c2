// @vitest-environment node
// The statement a named call becomes over the direct connection: the overload chosen as PostgREST
// chooses it, every argument a quoted literal cast to its declared type, the answer shaped as
// PostgREST's. The quoting is the driver's (pg's escapeLiteral), as in database.ts.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { paramText, signaturesFromRows, sqlCall } from './sql-call.ts';

const overloads = signaturesFromRows([
  { names: ['p_id'], types: ['uuid'], retset: false, void: false },
  {
    names: ['p_id', 'p_data', 'p_order'],
    types: ['uuid', 'jsonb', 'text[]'],
    retset: false,
    void: false,
  },
]);
const call = (name: string, args: Record<string, unknown>, o = overloads) =>
  sqlCall(name, args, o, pg.escapeLiteral);

describe('sqlCall', () => {
  it('picks the overload that names every argument and casts each to its type', () => {
    expect(call('accept', { p_id: 'a', p_order: ['x'], p_data: null })).toEqual({
      query:
        `select to_jsonb(public."accept"("p_id" => 'a'::uuid, "p_order" => '{"x"}'::text[], ` +
        `"p_data" => null::jsonb)) as data`,
    });
  });

  it('takes the fewest arguments that fit', () => {
    expect(call('accept', { p_id: 'a' })).toEqual({
      query: `select to_jsonb(public."accept"("p_id" => 'a'::uuid)) as data`,
    });
  });

  it('answers a set as one JSON array and a void function with null', () => {
    const set = signaturesFromRows([
      { names: ['p_limit'], types: ['integer'], retset: true, void: false },
    ]);
    expect(call('claim', { p_limit: 5 }, set)).toEqual({
      query: `select coalesce(jsonb_agg(to_jsonb(r)), '[]'::jsonb) as data from public."claim"("p_limit" => '5'::integer) r`,
    });
    const none = signaturesFromRows([{ names: null, types: [], retset: false, void: true }]);
    expect(call('sweep', {}, none)).toEqual({
      query: 'select public."sweep"(), null::jsonb as data',
    });
  });

  it('refuses a name no overload has, as PostgREST does, without a statement', () => {
    expect(call('accept', { p_other: 1 })).toEqual({
      error: 'Could not find the function public.accept(p_other)',
    });
    expect(call('missing', {}, [])).toHaveProperty('error');
  });

  it('keeps hostile values and names inside their literals and identifiers', () => {
    const odd = signaturesFromRows([
      { names: ['a"b', 'p_t'], types: ['text', 'text'], retset: false, void: false },
    ]);
    const hostile = `x'); drop table t; -- \\' "`;
    expect(call('x"); drop table t; --', { 'a"b': hostile, p_t: 'ok' }, odd)).toEqual({
      query:
        `select to_jsonb(public."x""); drop table t; --"("a""b" => ${pg.escapeLiteral(hostile)}::text, ` +
        `"p_t" => 'ok'::text)) as data`,
    });
    // The driver's quoting doubles the quote and, with a backslash in the text, uses E'…'.
    expect(pg.escapeLiteral(hostile)).toBe(` E'x''); drop table t; -- \\\\'' "'`);
  });
});

describe('paramText', () => {
  it('writes JSON for json types, an array literal for arrays, text for the rest', () => {
    expect(paramText({ a: [1, 'b'] }, 'jsonb')).toBe('{"a":[1,"b"]}');
    expect(paramText([{ id: 1 }], 'jsonb')).toBe('[{"id":1}]');
    expect(paramText(['plain', 'with "quote"', 'back\\slash', null, ''], 'text[]')).toBe(
      '{"plain","with \\"quote\\"","back\\\\slash",NULL,""}',
    );
    expect(paramText(true, 'boolean')).toBe('true');
    expect(paramText(42, 'integer')).toBe('42');
    expect(paramText(null, 'uuid')).toBeNull();
    expect(paramText(undefined, 'text')).toBeNull();
  });
});
