// Forms meet analytics against the local stack: a post carrying the tracker's hidden fields
// (_tb_site, _tb_page, _tb_ref) keeps them on its entry and never among its fields; values the
// tracker would not send are dropped without refusing the post; another account's site is stored
// as none; and form_conversion() sets the owner's tracked submissions against the page views of
// their pages, for the owner only.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { anon, createAuthUser, runAs, superuserPool, user } from '../support/db.ts';
import { postFields, resetRateLimits, seedForm, type SeededForm } from './support.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;
let form: SeededForm;
let site: string;
let foreignSite: string;

async function addSite(userId: string): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `insert into public.analytics_sites (user_id, name, domains)
     values ($1, 'Site', '{site.example.test}') returning id`,
    [userId],
  );
  return rows[0]!.id;
}

async function post(fields: Record<string, string>) {
  const res = await postFields(stack.apiUrl, form.formId, { message: 'Hello', ...fields });
  expect(res.status, res.body).toBe(200);
  const id = (JSON.parse(res.body) as { id: string }).id;
  const { rows } = await pool.query(
    'select data, field_order, source_site_id, source_page, source_referrer from public.entries where id = $1',
    [id],
  );
  return rows[0] as {
    data: Record<string, unknown>;
    field_order: string[];
    source_site_id: string | null;
    source_page: string | null;
    source_referrer: string | null;
  };
}

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  form = await seedForm(pool);
  site = await addSite(form.userId);
  const stranger = await createAuthUser(pool, 'Stranger');
  foreignSite = await addSite(stranger.id);
});
afterAll(async () => {
  await pool.end();
});
beforeEach(async () => {
  await resetRateLimits(pool);
});

describe('a post from a page with the tracker', () => {
  it('keeps the site, page and referrer on the entry, not among its fields', async () => {
    const entry = await post({
      company: 'ACME',
      _tb_site: site.toUpperCase(),
      _tb_page: '/contact',
      _tb_ref: 'news.example',
    });
    expect(entry).toEqual({
      data: { company: 'ACME' },
      field_order: ['company'],
      source_site_id: site,
      source_page: '/contact',
      source_referrer: 'news.example',
    });
  });

  it('stores nothing from values the tracker would not send, and accepts the post', async () => {
    const entry = await post({
      _tb_site: 'not-a-site',
      _tb_page: 'contact\n',
      _tb_ref: 'https://news.example/path',
    });
    expect(entry).toMatchObject({
      data: {},
      source_site_id: null,
      source_page: null,
      source_referrer: null,
    });
    const long = await post({ _tb_page: '/' + 'x'.repeat(3000), _tb_ref: 'a'.repeat(254) });
    expect(long.source_page).toBe('/' + 'x'.repeat(1999));
    expect(long.source_referrer).toBeNull();
    expect(await post({ _tb_page: '/a\u0007b' })).toMatchObject({ source_page: null });
  });

  it('stores another account’s site as none (the page and referrer stay)', async () => {
    const entry = await post({ _tb_site: foreignSite, _tb_page: '/p', _tb_ref: 'x.example' });
    expect(entry).toMatchObject({
      source_site_id: null,
      source_page: '/p',
      source_referrer: 'x.example',
    });
    // A well-formed id of no site at all, likewise.
    expect(await post({ _tb_site: randomUUID() })).toMatchObject({ source_site_id: null });
  });

  it('the database refuses what the endpoint would never store', async () => {
    for (const [column, value] of [
      ['source_page', 'no-slash'],
      ['source_page', '/a\tb'],
      ['source_referrer', 'UPPER.example'],
      ['source_referrer', 'a'.repeat(254)],
    ]) {
      await expect(
        pool.query(
          `insert into public.entries (form_id, user_id, message, ${column}) values ($1, $2, 'x', $3)`,
          [form.formId, form.userId, value],
        ),
      ).rejects.toThrow(/check constraint/);
    }
  });
});

describe('form_conversion()', () => {
  let convForm: SeededForm;
  let convSite: string;

  beforeAll(async () => {
    convForm = await seedForm(pool, 'Conversion');
    convSite = await addSite(convForm.userId);
    const other = await addSite(convForm.userId);
    // Page views today: 40 on /contact, 10 on /pricing, 7 on /blog (where the form never was),
    // and 5 on another of the owner's sites' /contact (no entry came from there).
    await pool.query(
      `insert into private.analytics_events (site_id, at, visitor, name, path, entry)
       select s, now() - interval '1 minute', g, 'pageview', p, true
         from (values ($1::uuid, '/contact', 40), ($1::uuid, '/pricing', 10),
                      ($1::uuid, '/blog', 7), ($2::uuid, '/contact', 5)) v(s, p, n),
              generate_series(1, v.n) g`,
      [convSite, other],
    );
    // A custom event on /contact is not a page view.
    await pool.query(
      `insert into private.analytics_events (site_id, at, visitor, name, path, entry)
       values ($1, now() - interval '1 minute', 99, 'signup', '/contact', false)`,
      [convSite],
    );
    const entry = (page: string | null, siteId: string | null, extra = '') =>
      pool.query(
        `insert into public.entries (form_id, user_id, message, source_site_id, source_page ${extra ? ', is_spam' : ''})
         values ($1, $2, 'x', $3, $4 ${extra ? ', true' : ''})`,
        [convForm.formId, convForm.userId, siteId, page],
      );
    for (let i = 0; i < 3; i++) await entry('/contact', convSite);
    await entry('/pricing', convSite);
    // Neither counts: an entry without the tracker, and spam.
    await entry(null, null);
    await entry('/blog', convSite, 'spam');
  });

  const conversion = (actor: Parameters<typeof runAs>[1], formId = convForm.formId, days = 30) =>
    runAs<{ views: string; submissions: string; conversion: string | null }>(
      pool,
      actor,
      'select * from public.form_conversion($1, $2)',
      [formId, days],
    );

  it('counts the page views of the form’s pages, its tracked submissions and the rate', async () => {
    const outcome = await conversion(user(convForm.userId));
    expect(outcome.code).toBeUndefined();
    expect(outcome.rows).toEqual([{ views: '50', submissions: '4', conversion: '8.0' }]);
  });

  it('answers nothing to count for a form without tracked entries', async () => {
    const outcome = await conversion(user(form.userId), form.formId);
    expect(outcome.rows[0]).toMatchObject({ submissions: expect.any(String) });
    const bare = await seedForm(pool, 'Bare');
    expect((await conversion(user(bare.userId), bare.formId)).rows).toEqual([
      { views: '0', submissions: '0', conversion: null },
    ]);
  });

  it('refuses another user as it refuses a missing form, and anon altogether', async () => {
    const stranger = await createAuthUser(pool, 'Other');
    const foreign = await conversion(user(stranger.id));
    const missing = await conversion(user(stranger.id), randomUUID());
    expect(foreign.code).toBe('PT404');
    expect({ code: foreign.code, message: foreign.message }).toEqual({
      code: missing.code,
      message: missing.message,
    });
    expect((await conversion(anon)).code).toBe('42501');
  });

  it('refuses a period outside 1 to 400 days', async () => {
    expect((await conversion(user(convForm.userId), convForm.formId, 0)).code).toBe('22023');
    expect((await conversion(user(convForm.userId), convForm.formId, 401)).code).toBe('22023');
  });
});
