// Applies the bootstrap (Supabase's built-in roles and schemas), then supabase/migrations in
// version order, recording each in supabase_migrations.schema_migrations as the CLI does, then seeds.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

const BOOTSTRAP = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bootstrap.sql');
const MIGRATION_FILE = /^([0-9]+)_(.*)\.sql$/;

export async function bootstrap(pool: pg.Pool) {
  await pool.query(await readFile(BOOTSTRAP, 'utf8'));
}

/** Applies every migration not yet recorded; returns the versions applied. */
export async function applyMigrations(pool: pg.Pool, supabaseDir: string): Promise<string[]> {
  const dir = path.join(supabaseDir, 'migrations');
  const files = (await readdir(dir).catch(() => [] as string[]))
    .filter((f) => MIGRATION_FILE.test(f))
    .sort();
  const { rows } = await pool.query<{ version: string }>(
    'select version from supabase_migrations.schema_migrations',
  );
  const done = new Set(rows.map((r) => r.version));
  const applied: string[] = [];
  for (const file of files) {
    const [, version, name] = MIGRATION_FILE.exec(file)!;
    if (done.has(version)) continue;
    const sql = await readFile(path.join(dir, file), 'utf8');
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(sql);
      await client.query(
        'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
        [version, name, [sql]],
      );
      await client.query('commit');
      applied.push(version);
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw new Error(`Migration ${file} failed: ${(err as Error).message}`);
    } finally {
      client.release();
    }
  }
  return applied;
}

export async function applySeed(pool: pg.Pool, seedPaths: string[]) {
  for (const file of seedPaths) {
    const sql = await readFile(file, 'utf8').catch(() => null);
    if (sql === null) continue;
    try {
      await pool.query(sql);
    } catch (err) {
      throw new Error(`Seed ${path.basename(file)} failed: ${(err as Error).message}`);
    }
  }
}
