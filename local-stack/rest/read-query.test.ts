// Planning reads against a schema snapshot: values stay parameters, names are quoted, and
// relationships resolve (or fail) as PostgREST's do.
import { describe, expect, it } from 'vitest';
import { RestError } from './errors.ts';
import { parseQueryParams, parseSelect } from './query-grammar.ts';
import { buildReadStatement, newBuildContext, SchemaMiss } from './read-query.ts';
import type { SchemaSnapshot, TableInfo } from './schema-cache.ts';
import { Params } from './sql.ts';

function table(name: string, columns: string[], primaryKey = ['id']): TableInfo {
  return {
    name,
    kind: 'table',
    columns: new Map(columns.map((c) => [c, { name: c, type: 'text' }])),
    primaryKey,
    uniqueKeys: [primaryKey],
  };
}

const snapshot: SchemaSnapshot = {
  tables: new Map([
    ['forms', table('forms', ['id', 'name'])],
    ['entries', table('entries', ['id', 'form_id', 'message'])],
  ]),
  foreignKeys: [
    {
      name: 'entries_form_id_fkey',
      table: 'entries',
      columns: ['form_id'],
      foreignTable: 'forms',
      foreignColumns: ['id'],
    },
  ],
  functions: new Map(),
  roleSettings: new Map(),
};

function plan(search: string, strict = false) {
  const query = parseQueryParams(new URLSearchParams(search));
  const params = new Params();
  const text = buildReadStatement({
    ctx: newBuildContext(snapshot, params, query.levels, strict),
    from: '"public"."entries" as "entries"',
    alias: 'entries',
    tableName: 'entries',
    table: snapshot.tables.get('entries'),
    select: parseSelect(query.select ?? '*'),
    count: true,
    limit: 10,
    offset: 0,
    shape: 'array',
    stripNulls: false,
  });
  return { text, values: params.values };
}

describe('buildReadStatement', () => {
  it('keeps every value out of the SQL text', () => {
    const evil = "x'); drop table forms; --";
    const { text, values } = plan(
      `select=id,form:forms(name)&message=eq.${encodeURIComponent(evil)}&form.name=in.(${encodeURIComponent(`"${evil}"`)})&or=(message.like.*a*,id.is.null)`,
    );
    expect(text).not.toContain('drop table');
    expect(values).toContain(evil);
    expect(values).toContainEqual([evil]);
    expect(values).toContain('%a%');
  });

  it('joins a many-to-one embed on the foreign key and quotes names', () => {
    const { text } = plan('select=id,form:forms(name)');
    expect(text).toContain('"forms_1"."id" = "entries"."form_id"');
    expect(text).toContain('pg_catalog.to_json(pgrst_e)');
    expect(text).toContain('as "form"');
  });

  it('counts over the same filters without the page limits', () => {
    const { text } = plan('message=eq.hi');
    expect(text).toMatch(
      /\(select pg_catalog\.count\(\*\) from "public"\."entries" as "entries" where "entries"\."message" = \$1\)/,
    );
    expect(text).toContain(' limit 10');
  });

  it('reports unknown names as misses first, then as PostgREST errors', () => {
    expect(() => plan('select=nope', true)).toThrow(SchemaMiss);
    expect(() => plan('select=id,profiles(name)', true)).toThrow(SchemaMiss);
    try {
      plan('select=id,profiles(name)');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(RestError);
      expect((err as RestError).code).toBe('PGRST200');
    }
    expect(() => plan('nothere.name=eq.x')).toThrow(
      "'nothere' is not an embedded resource in this request",
    );
  });
});
