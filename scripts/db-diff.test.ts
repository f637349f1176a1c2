// `npm run db:diff` holds the migrations to the declarative schemas: a deliberately drifted schema
// fails the check, with the statements that would repair each kind of drift (including those
// @pgkit/migra does not see by itself), and the project's own files pass it.
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MIGRATIONS_DIR,
  SCHEMAS_DIR,
  startScratchCluster,
  type ScratchCluster,
} from './db-diff.ts';

let cluster: ScratchCluster;
let dir: string;

beforeAll(async () => {
  cluster = await startScratchCluster();
  dir = await mkdtemp(path.join(tmpdir(), 'tinyback-drift-'));
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('db:diff', () => {
  it('finds no drift between the migrations and the declarative schemas', async () => {
    expect(await cluster.diff(MIGRATIONS_DIR, SCHEMAS_DIR)).toBe('');
  }, 120_000);

  it('reports a drifted schema, also where migra alone is blind', async () => {
    const drifted = path.join(dir, 'schemas');
    await cp(SCHEMAS_DIR, drifted, { recursive: true });
    await writeFile(
      path.join(drifted, '99_drift.sql'),
      `alter table public.profiles add column nickname text;
       alter publication supabase_realtime drop table public.entries;
       alter function public.handle_new_user() set search_path = public;
       grant execute on function public.handle_new_user() to anon;
       grant select (name) on table public.profiles to anon;
       grant usage on schema private to authenticated;
       comment on table public.forms is 'Drifted.';
       alter table public.entries replica identity default;`,
    );
    const sql = await cluster.diff(MIGRATIONS_DIR, drifted);
    expect(sql).toContain('alter table "public"."profiles" add column "nickname" text;');
    expect(sql).toContain('alter publication supabase_realtime drop table public.entries;');
    expect(sql).toContain('alter function public.handle_new_user() set search_path to public;');
    expect(sql).toContain('grant execute on function public.handle_new_user() to anon;');
    expect(sql).toContain('grant select (name) on table public.profiles to anon;');
    expect(sql).toContain('grant usage on schema private to authenticated;');
    expect(sql).toContain("comment on table public.forms is 'Drifted.';");
    expect(sql).toContain('alter table public.entries replica identity default;');
  }, 120_000);
});
