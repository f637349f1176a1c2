// Row level security and grants at the SQL level: two users (A and B) and a signed-out visitor
// act on every table exactly as PostgREST would run their requests, and each allowed and denied
// operation is asserted. Denied means what Postgres does: error 42501, or zero rows affected.
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { randomBytes } from 'node:crypto';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import {
  anon,
  asAnon,
  asUser,
  createAuthUser,
  createEntry,
  createForm,
  runAs,
  serviceRole,
  superuserPool,
  uniqueEmail,
  user,
  withActor,
  type TestUser,
} from '../support/db.ts';
import { remote } from '../support/target.ts';
import { testStack } from '../support/stack.ts';

const DENIED = '42501';
const CHECK_VIOLATION = '23514';

let pool: pg.Pool;
let alice: TestUser;
let bob: TestUser;
let aliceForm: string;
let bobForm: string;
let aliceEntry: string;
let bobEntry: string;

beforeAll(async () => {
  pool = superuserPool(testStack().dbUrl);
  alice = await createAuthUser(pool, 'Alice');
  bob = await createAuthUser(pool, 'Bob');
  aliceForm = await createForm(pool, alice.id, { name: 'Alice contact' });
  bobForm = await createForm(pool, bob.id, { name: 'Bob contact' });
  aliceEntry = (await createEntry(pool, aliceForm, { message: 'for Alice' })).id;
  bobEntry = (await createEntry(pool, bobForm, { message: 'for Bob' })).id;
});

afterAll(async () => {
  await pool?.query('delete from auth.users where id = any($1)', [
    [alice?.id, bob?.id].filter(Boolean),
  ]);
  await pool?.end();
});

describe('every public table', () => {
  it('has row level security enabled', async () => {
    const { rows } = await pool.query<{ relname: string }>(
      `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relrowsecurity`,
    );
    expect(rows.map((r) => r.relname)).toEqual([]);
  });

  it('gives visitors nothing on profiles, forms and entries', async () => {
    const { rows } = await pool.query<{ table_name: string; privilege_type: string }>(
      `select table_name, privilege_type from information_schema.role_table_grants
        where grantee = 'anon' and table_schema = 'public'
          and table_name in ('profiles', 'forms', 'entries')`,
    );
    expect(rows).toEqual([]);
  });

  it('publishes forms and entries (and nothing else of ours) to Realtime', async () => {
    const { rows } = await pool.query<{ tablename: string }>(
      `select tablename from pg_publication_tables
        where pubname = 'supabase_realtime' and schemaname = 'public' order by tablename`,
    );
    expect(rows.map((r) => r.tablename)).toEqual(expect.arrayContaining(['entries', 'forms']));
    expect(rows.map((r) => r.tablename)).not.toContain('profiles');
    expect(rows.map((r) => r.tablename)).not.toContain('newsletter_subscribers');
  });
});

describe('profiles', () => {
  it('is created on sign-up with the name from the metadata, the e-mail and the role user', async () => {
    const { rows } = await pool.query(
      'select id, name, email, role from public.profiles where id = $1',
      [alice.id],
    );
    expect(rows).toEqual([{ id: alice.id, name: 'Alice', email: alice.email, role: 'user' }]);
  });

  it('has no name when the sign-up gave none', async () => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const id = crypto.randomUUID();
      await client.query(
        `insert into auth.users (id, aud, role, email, raw_user_meta_data)
         values ($1, 'authenticated', 'authenticated', $2, '{"name":"   "}')`,
        [id, uniqueEmail('noname')],
      );
      const { rows } = await client.query('select name, role from public.profiles where id = $1', [
        id,
      ]);
      expect(rows).toEqual([{ name: null, role: 'user' }]);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });

  it('follows the account when its e-mail or name changes', async () => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(
        `update auth.users set email = 'renamed@example.test',
                raw_user_meta_data = raw_user_meta_data || '{"name":"Alice B."}' where id = $1`,
        [alice.id],
      );
      const { rows } = await client.query('select name, email from public.profiles where id = $1', [
        alice.id,
      ]);
      expect(rows).toEqual([{ name: 'Alice B.', email: 'renamed@example.test' }]);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });

  it('is readable by its owner only', async () => {
    const a = await asUser(pool, alice.id, 'select id from public.profiles');
    expect(a.rows).toEqual([{ id: alice.id }]);
    const b = await asUser(pool, bob.id, 'select id from public.profiles where id = $1', [
      alice.id,
    ]);
    expect(b.code).toBeUndefined();
    expect(b.rows).toEqual([]);
    expect((await asAnon(pool, 'select id from public.profiles')).code).toBe(DENIED);
  });

  it('lets the owner change the name, and nobody else', async () => {
    const own = await asUser(
      pool,
      alice.id,
      `update public.profiles set name = 'Ally' where id = $1 returning name`,
      [alice.id],
    );
    expect(own.rows).toEqual([{ name: 'Ally' }]);
    const other = await asUser(
      pool,
      bob.id,
      `update public.profiles set name = 'Mallory' where id = $1`,
      [alice.id],
    );
    expect(other.code).toBeUndefined();
    expect(other.rowCount).toBe(0);
    expect((await asAnon(pool, `update public.profiles set name = 'x'`)).code).toBe(DENIED);
  });

  it.each([
    ['role', `'admin'`],
    ['email', `'other@example.test'`],
    ['id', 'gen_random_uuid()'],
  ])('does not let the owner change %s', async (column, value) => {
    const res = await asUser(
      pool,
      alice.id,
      `update public.profiles set ${column} = ${value} where id = $1`,
      [alice.id],
    );
    expect(res.code).toBe(DENIED);
    const { rows } = await pool.query('select role from public.profiles where id = $1', [alice.id]);
    expect(rows[0].role).toBe('user');
  });

  it('cannot be inserted or deleted by users or visitors', async () => {
    const insert = `insert into public.profiles (id, name) values (gen_random_uuid(), 'x')`;
    expect((await asUser(pool, alice.id, insert)).code).toBe(DENIED);
    expect((await asAnon(pool, insert)).code).toBe(DENIED);
    expect(
      (await asUser(pool, alice.id, 'delete from public.profiles where id = $1', [alice.id])).code,
    ).toBe(DENIED);
    expect((await asAnon(pool, 'delete from public.profiles')).code).toBe(DENIED);
  });

  it('goes away with the auth user', async () => {
    const temp = await createAuthUser(pool, 'Temp');
    await pool.query('delete from auth.users where id = $1', [temp.id]);
    const { rowCount } = await pool.query('select 1 from public.profiles where id = $1', [temp.id]);
    expect(rowCount).toBe(0);
  });
});

describe('forms', () => {
  const insertForm = `insert into public.forms (name, target_email, allowed_origin) values ($1, $2, $3) returning *`;

  it('are visible to their owner only', async () => {
    const a = await asUser(pool, alice.id, 'select id from public.forms');
    expect(a.rows).toEqual([{ id: aliceForm }]);
    const b = await asUser(pool, bob.id, 'select id from public.forms');
    expect(b.rows).toEqual([{ id: bobForm }]);
    expect((await asAnon(pool, 'select id from public.forms')).code).toBe(DENIED);
  });

  it('are created for the signed-in user, with a client-supplied id if given', async () => {
    const id = crypto.randomUUID();
    const res = await asUser(
      pool,
      alice.id,
      `insert into public.forms (id, name, target_email, allowed_origin)
       values ($1, 'Newsletter', 'me@example.test', 'https://alice.example') returning id, user_id`,
      [id],
    );
    expect(res.code).toBeUndefined();
    expect(res.rows).toEqual([{ id, user_id: alice.id }]);
  });

  it('cannot be created for someone else or by a visitor', async () => {
    const forBob = await asUser(
      pool,
      alice.id,
      `insert into public.forms (user_id, name, target_email, allowed_origin) values ($1, 'x', 'a@example.test', 'https://a.example')`,
      [bob.id],
    );
    expect(forBob.code).toBe(DENIED);
    expect(
      (await asAnon(pool, insertForm, ['x', 'a@example.test', 'https://a.example'])).code,
    ).toBe(DENIED);
  });

  it('keep their timestamps to the database', async () => {
    const res = await asUser(
      pool,
      alice.id,
      `insert into public.forms (name, target_email, allowed_origin, created_at) values ('x', 'a@example.test', 'https://a.example', '2000-01-01')`,
    );
    expect(res.code).toBe(DENIED);
  });

  it('are updatable by their owner only, and never change hands', async () => {
    const own = await asUser(
      pool,
      alice.id,
      `update public.forms set name = 'Renamed' where id = $1 returning name`,
      [aliceForm],
    );
    expect(own.rows).toEqual([{ name: 'Renamed' }]);
    const other = await asUser(
      pool,
      bob.id,
      `update public.forms set name = 'Hijacked' where id = $1`,
      [aliceForm],
    );
    expect(other.code).toBeUndefined();
    expect(other.rowCount).toBe(0);
    expect(
      (
        await asUser(pool, alice.id, 'update public.forms set user_id = $1 where id = $2', [
          bob.id,
          aliceForm,
        ])
      ).code,
    ).toBe(DENIED);
    expect(
      (
        await asUser(
          pool,
          alice.id,
          'update public.forms set id = gen_random_uuid() where id = $1',
          [aliceForm],
        )
      ).code,
    ).toBe(DENIED);
    expect((await asAnon(pool, `update public.forms set name = 'x'`)).code).toBe(DENIED);
  });

  it('are deletable by their owner only, taking their entries with them', async () => {
    const other = await asUser(pool, bob.id, 'delete from public.forms where id = $1', [aliceForm]);
    expect(other.code).toBeUndefined();
    expect(other.rowCount).toBe(0);
    expect((await asAnon(pool, 'delete from public.forms')).code).toBe(DENIED);
    await withActor(pool, user(alice.id), async (q) => {
      expect((await q('delete from public.forms where id = $1', [aliceForm])).rowCount).toBe(1);
      await q('reset role');
      expect(
        (await q('select 1 from public.entries where form_id = $1', [aliceForm])).rowCount,
      ).toBe(0);
    });
  });

  it('normalise the origin: spaces, case and one trailing slash', async () => {
    for (const [input, stored] of [
      ['https://Example.com/', 'https://example.com'],
      ['  http://localhost:5173/  ', 'http://localhost:5173'],
      ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
      ['https://[::1]:3000', 'https://[::1]:3000'],
      ['https://www.my-site.co.uk', 'https://www.my-site.co.uk'],
    ]) {
      const res = await asUser(pool, alice.id, insertForm, [
        ' Contact ',
        ' me@example.test ',
        input,
      ]);
      expect(res.code, input).toBeUndefined();
      expect(res.rows[0]).toMatchObject({
        allowed_origin: stored,
        name: 'Contact',
        target_email: 'me@example.test',
      });
    }
  });

  it.each([
    'example.com',
    'ftp://example.com',
    'https://',
    'https://example.com/path',
    'https://example.com//',
    'https://example.com?x=1',
    'https://example.com#top',
    'https://user@example.com',
    'https://example.com:99999',
    'https://exa mple.com',
    'https://-example.com',
    'javascript:alert(1)',
    '*',
    '',
  ])('reject the origin %j', async (origin) => {
    expect(
      (await asUser(pool, alice.id, insertForm, ['Contact', 'me@example.test', origin])).code,
    ).toBe(CHECK_VIOLATION);
  });

  it.each([
    '',
    'plain',
    'no-at.example.com',
    'a@b',
    'a@@b.com',
    'a b@c.com',
    'a@b .com',
    `${'x'.repeat(310)}@example.com`,
  ])('reject the target e-mail %j', async (email) => {
    expect(
      (await asUser(pool, alice.id, insertForm, ['Contact', email, 'https://a.example'])).code,
    ).toBe(CHECK_VIOLATION);
  });

  it.each(['', '   ', 'x'.repeat(201)])('reject the name %j', async (name) => {
    expect(
      (await asUser(pool, alice.id, insertForm, [name, 'me@example.test', 'https://a.example']))
        .code,
    ).toBe(CHECK_VIOLATION);
  });

  it('accept common e-mail shapes', async () => {
    for (const email of [
      'first.last+tag@example.com',
      'x@sub.domain-name.io',
      "o'brien@example.ie",
    ]) {
      expect(
        (await asUser(pool, alice.id, insertForm, ['Contact', email, 'https://a.example'])).code,
        email,
      ).toBeUndefined();
    }
  });
});

describe('entries', () => {
  it('are visible to the form owner only', async () => {
    expect((await asUser(pool, alice.id, 'select id from public.entries')).rows).toEqual([
      { id: aliceEntry },
    ]);
    expect((await asUser(pool, bob.id, 'select id from public.entries')).rows).toEqual([
      { id: bobEntry },
    ]);
    expect((await asAnon(pool, 'select id from public.entries')).code).toBe(DENIED);
  });

  it('cannot be inserted by users, not even into their own form, nor by visitors', async () => {
    const insert = `insert into public.entries (form_id, message) values ($1, 'spoofed')`;
    expect((await asUser(pool, alice.id, insert, [aliceForm])).code).toBe(DENIED);
    expect((await asUser(pool, bob.id, insert, [aliceForm])).code).toBe(DENIED);
    expect((await asAnon(pool, insert, [aliceForm])).code).toBe(DENIED);
  });

  it('get their owner from the form, whatever the writer sends', async () => {
    const res = await runAs(
      pool,
      serviceRole,
      `insert into public.entries (form_id, user_id, message) values ($1, $2, 'hi') returning user_id, data, is_spam, read_at`,
      [aliceForm, bob.id],
    );
    expect(res.rows).toEqual([{ user_id: alice.id, data: {}, is_spam: false, read_at: null }]);
    const moved = await runAs(
      pool,
      serviceRole,
      'update public.entries set user_id = $1 where id = $2 returning user_id',
      [bob.id, aliceEntry],
    );
    expect(moved.rows).toEqual([{ user_id: alice.id }]);
  });

  it('reject an unknown form', async () => {
    const res = await runAs(
      pool,
      serviceRole,
      `insert into public.entries (form_id) values (gen_random_uuid())`,
    );
    expect(res.code).toBe('23503');
  });

  it('let the owner mark them read or spam, and nobody else', async () => {
    const own = await asUser(
      pool,
      alice.id,
      'update public.entries set read_at = now(), is_spam = true where id = $1 returning is_spam, read_at is not null as read',
      [aliceEntry],
    );
    expect(own.rows).toEqual([{ is_spam: true, read: true }]);
    const other = await asUser(
      pool,
      bob.id,
      'update public.entries set is_spam = true where id = $1',
      [aliceEntry],
    );
    expect(other.code).toBeUndefined();
    expect(other.rowCount).toBe(0);
    expect((await asAnon(pool, 'update public.entries set is_spam = true')).code).toBe(DENIED);
  });

  it.each([
    ['message', `'rewritten'`],
    ['name', `'someone else'`],
    ['email', `'x@example.test'`],
    ['data', `'{}'::jsonb`],
    ['user_id', 'null'],
    ['form_id', 'null'],
    ['created_at', 'now()'],
  ])('do not let the owner change %s', async (column, value) => {
    const res = await asUser(
      pool,
      alice.id,
      `update public.entries set ${column} = ${value} where id = $1`,
      [aliceEntry],
    );
    expect(res.code).toBe(DENIED);
  });

  it('are deletable by the owner only', async () => {
    const other = await asUser(pool, bob.id, 'delete from public.entries where id = $1', [
      aliceEntry,
    ]);
    expect(other.code).toBeUndefined();
    expect(other.rowCount).toBe(0);
    expect((await asAnon(pool, 'delete from public.entries')).code).toBe(DENIED);
    expect(
      (await asUser(pool, alice.id, 'delete from public.entries where id = $1', [aliceEntry]))
        .rowCount,
    ).toBe(1);
  });

  it.each([
    ['name', `repeat('x', 201)`],
    ['email', `repeat('x', 321)`],
    ['message', `repeat('x', 10001)`],
    ['data', `'[1, 2]'::jsonb`],
  ])('reject an oversized or malformed %s', async (column, value) => {
    const res = await runAs(
      pool,
      serviceRole,
      `insert into public.entries (form_id, ${column}) values ($1, ${value})`,
      [aliceForm],
    );
    expect(res.code).toBe(CHECK_VIOLATION);
  });

  it('accept values at the limits', async () => {
    const res = await runAs(
      pool,
      serviceRole,
      `insert into public.entries (form_id, name, email, message) values ($1, repeat('n', 200), repeat('e', 320), repeat('m', 10000))`,
      [aliceForm],
    );
    expect(res.code).toBeUndefined();
    expect(res.rowCount).toBe(1);
  });
});

describe('newsletter_subscribers', () => {
  // The footer's sign-ups from before the site list; sign-ups now go to the site list through the
  // `newsletter` Edge Function (service role) and its definer functions: a direct insert told a
  // visitor whether an address was on the list and took any number at once.
  const subscribe = 'insert into private.newsletter_subscribers (email) values ($1)';
  const rpcs = [
    `select public.list_signup_attempt(null, $1, 'c', '{}'::jsonb)`,
    `select public.list_confirm($1)`,
    `select public.list_unsubscribe_token($1)`,
  ];

  it('take no sign-up from visitors or users, and they cannot call the sign-up functions', async () => {
    for (const actor of [anon, user(alice.id)]) {
      await withActor(pool, actor, async (q) => {
        expect((await q(subscribe, [uniqueEmail('direct')])).code).toBe(DENIED);
        for (const rpc of rpcs) expect((await q(rpc, [uniqueEmail('rpc')])).code, rpc).toBe(DENIED);
      });
    }
    const { rows } = await pool.query<{ grantee: string; privilege_type: string }>(
      `select grantee, privilege_type from information_schema.role_table_grants
        where table_schema in ('public', 'private')
          and table_name in ('newsletter_subscribers', 'newsletter_tokens', 'newsletter_rate_limits')
          and grantee in ('anon', 'authenticated')`,
    );
    expect(rows).toEqual([]);
  });

  it('are readable, changeable and deletable by no API role, the service role included', async () => {
    const email = uniqueEmail('private');
    const setup = (q: (sql: string, params?: unknown[]) => Promise<unknown>) =>
      q(subscribe, [email]);
    for (const actor of [anon, user(alice.id), serviceRole]) {
      await withActor(
        pool,
        actor,
        async (q) => {
          for (const table of [
            'private.newsletter_subscribers',
            'private.newsletter_tokens',
            'private.newsletter_rate_limits',
          ])
            expect((await q(`select * from ${table}`)).code, table).toBe(DENIED);
          expect(
            (await q(`update private.newsletter_subscribers set status = 'confirmed'`)).code,
          ).toBe(DENIED);
          expect((await q('delete from private.newsletter_subscribers')).code).toBe(DENIED);
        },
        setup,
      );
    }
  });

  it('let the service role sign an address up to the site list once, whatever its case, as pending', async (ctx) => {
    if (remote) {
      const { rows } = await pool.query('select 1 from public.newsletter_lists where site_list');
      if (!rows.length)
        ctx.skip('no list is the site list yet: select public.set_site_list(<list id>)');
    }
    const email = uniqueEmail('repeat');
    const token = () => randomBytes(32).toString('base64url');
    await withActor(pool, serviceRole, async (q) => {
      for (const address of [email, email.toUpperCase(), `  ${email}  `]) {
        const gate = await q<{ r: { status: string; list_id: string } }>(
          `select public.list_signup_attempt(null, null, 'rls-test', '{"per_client_minute": 100, "per_client_day": 100}') as r`,
        );
        expect(gate.rows[0]!.r.status).toBe('ok');
        const res = await q<{ r: { status: string } }>(
          `select public.list_subscribe($1, $2, null, $3, 'https://site.test/newsletter/confirm?list=1&token=', '{}') as r`,
          [gate.rows[0]!.r.list_id, address, token()],
        );
        expect(res.code).toBeUndefined();
        expect(res.rows[0]!.r.status).toBe('ok');
      }
      // Read back as the database owner.
      await q('reset role');
      const { rows } = await q(
        `select s.email, s.status from public.list_subscribers s
           join public.newsletter_lists l on l.id = s.list_id
          where l.site_list and lower(s.email) = lower($1)`,
        [email],
      );
      expect(rows).toEqual([{ email, status: 'pending' }]);
    });
  });

  it.each(['', 'not-an-email', 'a@b', `${'x'.repeat(320)}@example.com`])(
    'reject the address %j',
    async (email) => {
      const insert = await pool.query(subscribe, [email]).then(
        () => ({ code: undefined }),
        (error: { code?: string }) => ({ code: error.code }),
      );
      expect(insert.code).toBe(CHECK_VIOLATION);
    },
  );
});

describe('blog_posts', () => {
  // The seed is optional on a deployment (README, "Deploying"): its checks need it applied.
  const needsSeed = async (ctx: TestContext) => {
    if (!remote) return;
    const { rows } = await pool.query<{ n: number }>(
      'select count(*)::int as n from public.blog_posts where id <= 5',
    );
    if (rows[0]!.n < 5) ctx.skip('needs the seed blog posts: apply supabase/seed.sql');
  };
  const hiddenPost = (q: (sql: string) => Promise<unknown>) =>
    q(
      `insert into public.blog_posts (id, title, category, published) values (9999, 'Draft', 'tips', false)`,
    );

  it('are seeded with ids 1, 2, 3 … and new posts continue after them', async (ctx) => {
    await needsSeed(ctx);
    const { rows } = await pool.query<{ id: number }>(
      'select id from public.blog_posts order by id',
    );
    expect(rows.length).toBeGreaterThanOrEqual(5);
    // Other suites may add posts of their own; the seeded ones are the first, numbered from 1.
    expect(rows.slice(0, 5).map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
    await withActor(pool, serviceRole, async (q) => {
      const res = await q<{ id: number }>(
        `insert into public.blog_posts (title, category) values ('Next', 'updates') returning id`,
      );
      expect(res.code).toBeUndefined();
      expect(res.rows[0]!.id).toBeGreaterThan(rows[rows.length - 1]!.id);
    });
  });

  it('from the seed each have a cover image in public/blog and markdown content', async (ctx) => {
    await needsSeed(ctx);
    const { rows } = await pool.query<{ image_url: string; content: string; category: string }>(
      'select image_url, content, category from public.blog_posts where id <= 6 order by id',
    );
    expect(rows).toHaveLength(6);
    for (const post of rows) {
      expect(post.image_url).toMatch(/^\/blog\/[a-z0-9-]+\.svg$/);
      await expect(access(path.join('public', post.image_url))).resolves.toBeUndefined();
      expect(post.content).toMatch(/^## /m);
    }
    expect(new Set(rows.map((r) => r.category))).toEqual(new Set(['updates', 'guides', 'tips']));
  });

  it('show published posts to visitors and users, and hide drafts', async (ctx) => {
    await needsSeed(ctx);
    for (const actor of [anon, user(alice.id)]) {
      await withActor(
        pool,
        actor,
        async (q) => {
          const res = await q<{ id: number }>('select id from public.blog_posts');
          expect(res.code).toBeUndefined();
          expect(res.rows.length).toBeGreaterThanOrEqual(5);
          expect(res.rows.map((r) => r.id)).not.toContain(9999);
          expect((await q('select id from public.blog_posts where id = 9999')).rowCount).toBe(0);
        },
        hiddenPost,
      );
    }
  });

  it('are written by nobody but the service role', async () => {
    for (const actor of [anon, user(alice.id)]) {
      await withActor(pool, actor, async (q) => {
        expect(
          (await q(`insert into public.blog_posts (title, category) values ('x', 'tips')`)).code,
        ).toBe(DENIED);
        expect((await q(`update public.blog_posts set title = 'x'`)).code).toBe(DENIED);
        expect((await q('delete from public.blog_posts')).code).toBe(DENIED);
      });
    }
  });

  it('reject an unknown category', async () => {
    const res = await runAs(
      pool,
      serviceRole,
      `insert into public.blog_posts (title, category) values ('x', 'news')`,
    );
    expect(res.code).toBe(CHECK_VIOLATION);
  });
});
