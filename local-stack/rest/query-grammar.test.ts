// PostgREST's query-string grammar as postgrest-js writes it.
import { describe, expect, it } from 'vitest';
import { RestError } from './errors.ts';
import {
  parseColumns,
  parseFilter,
  parseLogicTree,
  parseOrder,
  parseQueryParams,
  parseSelect,
  splitTopLevel,
} from './query-grammar.ts';

describe('parseSelect', () => {
  it('refuses aggregates with PGRST123, as Supabase does with aggregates disabled', () => {
    for (const raw of ['count()', 'id.count()', 'total:qty.sum()', 'price.max(),title']) {
      expect(() => parseSelect(raw)).toThrow(
        expect.objectContaining({ status: 400, code: 'PGRST123' }),
      );
    }
    expect(parseSelect('count,entries(count)')[1]).toMatchObject({ kind: 'embed' });
  });

  it('reads columns, aliases, casts, JSON paths and nested embeds', () => {
    expect(
      parseSelect(
        'id,name:title,qty::text,c:meta->a->>b,form:forms!fk!inner(name,owner:profiles(*))',
      ),
    ).toEqual([
      { kind: 'column', name: 'id', alias: undefined, jsonPath: [], cast: undefined },
      { kind: 'column', name: 'title', alias: 'name', jsonPath: [], cast: undefined },
      {
        kind: 'column',
        name: 'qty',
        alias: undefined,
        jsonPath: [],
        cast: { name: 'text', array: false },
      },
      {
        kind: 'column',
        name: 'meta',
        alias: 'c',
        jsonPath: [
          { arrow: '->', key: 'a' },
          { arrow: '->>', key: 'b' },
        ],
        cast: undefined,
      },
      {
        kind: 'embed',
        relation: 'forms',
        alias: 'form',
        hint: 'fk',
        inner: true,
        spread: false,
        select: [
          { kind: 'column', name: 'name', alias: undefined, jsonPath: [], cast: undefined },
          {
            kind: 'embed',
            relation: 'profiles',
            alias: 'owner',
            hint: undefined,
            inner: false,
            spread: false,
            select: [{ kind: 'star' }],
          },
        ],
      },
    ]);
  });

  it('reads spread embeds and refuses an alias on them', () => {
    expect(parseSelect('id,...forms(form_name:name)')[1]).toMatchObject({
      kind: 'embed',
      relation: 'forms',
      spread: true,
      select: [{ kind: 'column', name: 'name', alias: 'form_name' }],
    });
    expect(() => parseSelect('x:...forms(name)')).toThrow(RestError);
    expect(() => parseSelect('...name')).toThrow(RestError);
  });

  it('treats an empty select as * and strips whitespace outside quotes', () => {
    expect(parseSelect('')).toEqual([{ kind: 'star' }]);
    expect(parseSelect(' id , forms ( name ) ')).toEqual(parseSelect('id,forms(name)'));
  });

  it('names casts as the catalog does, so the planner can quote them', () => {
    const castOf = (raw: string) => (parseSelect(raw)[0] as { cast?: unknown }).cast;
    expect(castOf('a::INT')).toEqual({ name: 'int4', array: false });
    expect(castOf('a::bigint[]')).toEqual({ name: 'int8', array: true });
    expect(castOf('a::char')).toEqual({ name: 'bpchar', length: 1, array: false });
    expect(castOf('a::timestamptz')).toEqual({ name: 'timestamptz', array: false });
    expect(castOf('a::my_enum')).toEqual({ name: 'my_enum', array: false });
    // Whitespace outside quotes is stripped first, so a cast is one word.
    expect(castOf('a::text from pg_roles')).toEqual({ name: 'textfrompg_roles', array: false });
  });

  it('keeps whitespace inside quoted names and honours escaped quotes', () => {
    expect(parseSelect('"a b" , "c\\" d" ')).toMatchObject([
      { kind: 'column', name: 'a b' },
      { kind: 'column', name: 'c" d' },
    ]);
  });

  it.each([
    'id,forms(name',
    'id,,name',
    'qty::text;drop',
    'a)',
    'a::text)',
    'a::"text"',
    'a::varchar(3)',
    'rolname,rolsuper::"text from pg_roles as x union all select title"',
    `id${' '.repeat(3_000)}"`,
    'a\u0000b',
    '"a\u0000":id',
    'id,forms\u0000(name)',
    'data->>"k\u0000"',
  ])('refuses %j with PGRST100', (raw) => {
    expect(() => parseSelect(raw)).toThrow(
      expect.objectContaining({ status: 400, code: 'PGRST100' }),
    );
  });

  it.each(['id,forms(name', 'id,,name', 'qty::text;drop', 'a)'])(
    'refuses %s with PGRST100',
    (raw) => {
      expect(() => parseSelect(raw)).toThrow(RestError);
      try {
        parseSelect(raw);
      } catch (err) {
        expect((err as RestError).code).toBe('PGRST100');
        expect((err as RestError).status).toBe(400);
      }
    },
  );
});

describe('filters', () => {
  it('reads operators, negation, quantifiers and full-text configs', () => {
    expect(parseFilter('qty', 'gte.5').condition).toEqual({
      op: 'gte',
      quantifier: undefined,
      value: '5',
    });
    expect(parseFilter('title', 'not.like.a*')).toMatchObject({
      negate: true,
      condition: { op: 'like', value: 'a*' },
    });
    expect(parseFilter('email', 'eq.a.b@c.com').condition).toMatchObject({ value: 'a.b@c.com' });
    expect(parseFilter('t', 'like(any).{a*,b*}').condition).toEqual({
      op: 'like',
      quantifier: 'any',
      value: '{a*,b*}',
    });
    expect(parseFilter('t', 'fts(english).cat').condition).toEqual({
      op: 'fts',
      config: 'english',
      value: 'cat',
    });
    expect(parseFilter('qty', 'is.NULL').condition).toEqual({ op: 'is', value: 'null' });
    expect(parseFilter('data->>k', 'eq.1')).toMatchObject({
      column: 'data',
      jsonPath: [{ arrow: '->>', key: 'k' }],
    });
  });

  it('splits in-lists on commas outside double quotes', () => {
    expect(parseFilter('n', 'in.(a,"b,c","d\\"e",)').condition).toEqual({
      op: 'in',
      values: ['a', 'b,c', 'd"e', ''],
    });
    expect(parseFilter('n', 'in.()').condition).toEqual({ op: 'in', values: [] });
  });

  it.each([
    'qty=bogus.1',
    'qty=eq',
    'qty=is.maybe',
    'qty=in.1,2',
    'qty=like(some).x',
    'qty=isdistinct(any).1',
    'qty=cs(all).{1}',
  ])('refuses %s', (pair) => {
    const [col, value] = pair.split('=');
    expect(() => parseFilter(col, value)).toThrow(/failed to parse/);
  });

  it('reads nested logic trees with quoted values', () => {
    expect(parseLogicTree('or', false, '(a.eq.1,not.and(b.gt.2,c.eq."x,y"),d.in.(1,2))')).toEqual({
      kind: 'logic',
      operator: 'or',
      negate: false,
      children: [
        {
          kind: 'filter',
          column: 'a',
          jsonPath: [],
          negate: false,
          condition: { op: 'eq', quantifier: undefined, value: '1' },
        },
        {
          kind: 'logic',
          operator: 'and',
          negate: true,
          children: [
            {
              kind: 'filter',
              column: 'b',
              jsonPath: [],
              negate: false,
              condition: { op: 'gt', quantifier: undefined, value: '2' },
            },
            {
              kind: 'filter',
              column: 'c',
              jsonPath: [],
              negate: false,
              condition: { op: 'eq', quantifier: undefined, value: 'x,y' },
            },
          ],
        },
        {
          kind: 'filter',
          column: 'd',
          jsonPath: [],
          negate: false,
          condition: { op: 'in', values: ['1', '2'] },
        },
      ],
    });
  });
});

describe('order, columns and the parameter tree', () => {
  it('reads order terms', () => {
    expect(parseOrder('a.desc.nullslast,b,c.nullsfirst')).toEqual([
      { relation: undefined, column: 'a', jsonPath: [], direction: 'desc', nulls: 'last' },
      { relation: undefined, column: 'b', jsonPath: [], direction: undefined, nulls: undefined },
      { relation: undefined, column: 'c', jsonPath: [], direction: undefined, nulls: 'first' },
    ]);
  });

  it('reads orders by a related column', () => {
    expect(parseOrder('form(name).desc')).toEqual([
      { relation: 'form', column: 'name', jsonPath: [], direction: 'desc', nulls: undefined },
    ]);
    expect(() => parseOrder('form(name')).toThrow(/failed to parse/);
  });

  it('reads quoted column lists', () => {
    expect(splitTopLevel('a,(b,c),"d,e"')).toEqual(['a', '(b,c)', '"d,e"']);
    expect(parseColumns('"title","qty"')).toEqual(['title', 'qty']);
  });

  it('puts root and embedded options on their levels and skips rpc arguments', () => {
    const q = parseQueryParams(
      new URLSearchParams(
        'select=id,forms(name)&id=gt.1&forms.name=eq.x&forms.order=name.desc&forms.limit=2&not.or=(a.eq.1,b.eq.2)&limit=5&offset=10&columns="a"&min=3',
      ),
      new Set(['min']),
    );
    expect(q.select).toBe('id,forms(name)');
    expect(q.columns).toEqual(['a']);
    const root = q.levels.get('');
    expect(root?.limit).toBe(5);
    expect(root?.offset).toBe(10);
    expect(root?.predicates.map((p) => p.kind)).toEqual(['filter', 'logic']);
    const forms = q.levels.get('forms');
    expect(forms?.limit).toBe(2);
    expect(forms?.order?.[0]).toMatchObject({ column: 'name', direction: 'desc' });
    expect(forms?.predicates[0]).toMatchObject({ column: 'name' });
  });
});
