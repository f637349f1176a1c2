// The stats side of analytics against the local stack's Postgres: analytics_stats() as the owner
// equals a computation from the raw events written out here (a generated week of visits, today's
// open tail included) for the whole site and under filters, with the previous period, hourly
// buckets for one day, and the days the rollups hold after their raw events are gone; the range
// and filter refusals; analytics_visitors_now(); the live row's 5-second throttle; the rollup's
// watermark (a second pass changes nothing); and deletion of a site or an account taking every
// row of the site with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import {
  commitAsService,
  createAuthUser,
  runAs,
  superuserPool,
  user,
  type TestUser,
} from '../support/db.ts';
import { testStack } from '../support/stack.ts';

const stack = testStack();
let pool: pg.Pool;
let owner: TestUser;
let stranger: TestUser;

const DAY_MS = 86_400_000;
const DIMS = [
  'page',
  'entry_page',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'country',
  'browser',
  'os',
  'device',
] as const;

interface Event {
  at: number;
  visitor: string;
  name: string;
  path: string;
  entry: boolean;
  referrer_host: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  country: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
}
type Filters = Record<string, string>;

interface Totals {
  visitors: number;
  visits: number;
  pageviews: number;
  bounce_rate: number;
  events: number;
}

/** A small seeded generator, so a failing run can be repeated exactly. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const PATHS = ['/', '/pricing', '/blog', '/blog/a', '/blog/b', '/blog/c', '/docs', '/docs/x'];
const MORE_PATHS = ['/about', '/jobs', '/legal', '/help', '/status', '/changelog'];
const REFERRERS = [null, null, 'news.example', 'search.example', 'social.example'];
const COUNTRIES = ['DE', 'FR', 'US', 'GB', null];
const AGENTS = [
  ['Chrome', 'Windows', 'desktop'],
  ['Safari', 'iOS', 'mobile'],
  ['Firefox', 'Linux', 'desktop'],
  ['Chrome', 'Android', 'tablet'],
] as const;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const addDays = (day: string, n: number) => dayOf(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS);
const today = () => dayOf(Date.now());

/**
 * Visits of `days` days up to now: each day's visitors (ids of that day only) come back one to
 * three times, each visit one to five events minutes apart, an entry first; referrer and UTM on
 * the entry only, as the tracker sends them; today's events stop a minute before now.
 */
function generate(seed: number, days: number): Event[] {
  const rand = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const events: Event[] = [];
  const now = Date.now();
  for (let d = days - 1; d >= 0; d--) {
    const midnight = Date.parse(`${addDays(today(), -d)}T00:00:00Z`);
    // Today's visits fit between midnight and a minute ago (later events are dropped).
    const span = Math.min(DAY_MS, now - midnight) - 25 * 60_000;
    for (let v = 0; v < 18; v++) {
      const visitor = String(seed * 1_000_000 + d * 1000 + v);
      const [browser, os, device] = pick(AGENTS);
      const country = pick(COUNTRIES);
      const visits = 1 + Math.floor(rand() * 3);
      for (let k = 0; k < visits; k++) {
        // Visits of one visitor are hours apart within the day: each begins a new visit.
        let at = midnight + Math.max(0, ((k + rand() * 0.8) / visits) * span) + v;
        const referrer = pick(REFERRERS);
        const campaign = rand() < 0.3;
        const length = 1 + Math.floor(rand() * 5);
        for (let i = 0; i < length; i++) {
          if (at >= now - 60_000) break;
          events.push({
            at,
            visitor,
            name: i > 0 && rand() < 0.2 ? pick(['signup', 'outbound']) : 'pageview',
            path: rand() < 0.8 ? pick(PATHS) : pick(MORE_PATHS),
            entry: i === 0,
            referrer_host: i === 0 ? referrer : null,
            utm_source: i === 0 && campaign ? pick(['newsletter', 'ads']) : null,
            utm_medium: i === 0 && campaign ? 'email' : null,
            utm_campaign: i === 0 && campaign ? pick(['launch', 'winter']) : null,
            country,
            browser,
            os,
            device,
          });
          at += 60_000 + Math.floor(rand() * 240_000);
        }
      }
    }
  }
  return events;
}

// ---- The reference: the stats' definitions computed from raw events --------------------------

function matches(e: Event, filters: Filters): boolean {
  return Object.entries(filters).every(([key, value]) => {
    switch (key) {
      case 'page':
        return e.path === value;
      case 'entry_page':
        return e.entry && e.path === value;
      case 'referrer':
        return value === '(direct)' ? e.referrer_host === null : e.referrer_host === value;
      case 'event':
        return e.name === value;
      default:
        return e[key as keyof Event] === value;
    }
  });
}

function valueOf(e: Event, dim: (typeof DIMS)[number] | 'event'): string | null {
  switch (dim) {
    case 'page':
      return e.path;
    case 'entry_page':
      return e.entry ? e.path : null;
    case 'referrer':
      return e.referrer_host ?? '(direct)';
    case 'event':
      return e.name === 'pageview' ? null : e.name;
    default:
      return e[dim];
  }
}

/** A visit of one page view: the entry's page views up to the visitor's next entry or midnight. */
function bounced(entry: Event, all: Event[]): boolean {
  const end = Date.parse(`${dayOf(entry.at)}T00:00:00Z`) + DAY_MS;
  const mine = all.filter((e) => e.visitor === entry.visitor && e.at >= entry.at && e.at < end);
  const next = mine.filter((e) => e.entry && e.at > entry.at).map((e) => e.at);
  const until = next.length ? Math.min(...next) : end;
  return mine.filter((e) => e.at < until && e.name === 'pageview').length === 1;
}

function totalsOf(selected: Event[], all: Event[]): Totals {
  const perDay = new Map<string, Set<string>>();
  for (const e of selected) {
    const day = dayOf(e.at);
    perDay.set(day, (perDay.get(day) ?? new Set()).add(e.visitor));
  }
  const visits = selected.filter((e) => e.entry);
  const bounces = visits.filter((e) => bounced(e, all)).length;
  return {
    visitors: [...perDay.values()].reduce((n, s) => n + s.size, 0),
    visits: visits.length,
    pageviews: selected.filter((e) => e.name === 'pageview').length,
    bounce_rate: visits.length ? Math.round((100 * bounces) / visits.length) : 0,
    events: selected.filter((e) => e.name !== 'pageview').length,
  };
}

const byValue = (a: { value: string; visitors: number }, b: { value: string; visitors: number }) =>
  b.visitors - a.visitors || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

function expectedStats(all: Event[], from: string, to: string, filters: Filters = {}) {
  const length = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  const within = (f: string, t: string) =>
    all.filter((e) => dayOf(e.at) >= f && dayOf(e.at) <= t && matches(e, filters));
  const selected = within(from, to);
  const hourly = from === to;
  const buckets = hourly
    ? Array.from({ length: 24 }, (_, h) => Date.parse(`${from}T00:00:00Z`) + h * 3_600_000)
    : Array.from({ length }, (_, d) => Date.parse(`${from}T00:00:00Z`) + d * DAY_MS);
  const series = buckets.map((start) => {
    const end = start + (hourly ? 3_600_000 : DAY_MS);
    const inside = selected.filter((e) => e.at >= start && e.at < end);
    return {
      t: new Date(start).toISOString().replace('.000Z', 'Z'),
      visitors: new Set(inside.map((e) => e.visitor)).size,
      pageviews: inside.filter((e) => e.name === 'pageview').length,
    };
  });
  const top: Record<string, unknown[]> = {};
  for (const dim of [...DIMS, 'event'] as const) {
    const rows = new Map<string, { days: Map<string, Set<string>>; pv: number; ev: number }>();
    for (const e of selected) {
      const value = valueOf(e, dim);
      if (value === null) continue;
      const row = rows.get(value) ?? { days: new Map(), pv: 0, ev: 0 };
      const day = dayOf(e.at);
      row.days.set(day, (row.days.get(day) ?? new Set()).add(e.visitor));
      if (e.name === 'pageview') row.pv++;
      else row.ev++;
      rows.set(value, row);
    }
    const counted = [...rows].map(([value, row]) => ({
      value,
      visitors: [...row.days.values()].reduce((n, s) => n + s.size, 0),
      pv: row.pv,
      ev: row.ev,
    }));
    top[dim] = counted
      .sort(byValue)
      .slice(0, 10)
      .map((r) =>
        dim === 'event'
          ? { value: r.value, visitors: r.visitors, events: r.ev }
          : { value: r.value, visitors: r.visitors, pageviews: r.pv },
      );
  }
  return {
    range: { from, to, bucket: hourly ? 'hour' : 'day' },
    totals: totalsOf(selected, all),
    previous: totalsOf(within(addDays(from, -length), addDays(from, -1)), all),
    series,
    top,
  };
}

// ---- Helpers -------------------------------------------------------------------------------------

/** A site and its events in one transaction: no scheduled rollup can mark the site in between. */
async function siteWith(events: Event[], userId = owner.id): Promise<string> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<{ id: string }>(
      `insert into public.analytics_sites (user_id, name, domains)
       values ($1, 'Stats', '{stats.example.test}') returning id`,
      [userId],
    );
    const site = rows[0]!.id;
    const column = <K extends keyof Event>(key: K) => events.map((e) => e[key]);
    await client.query(
      `insert into private.analytics_events (site_id, at, visitor, name, path, entry, referrer_host,
                                             utm_source, utm_medium, utm_campaign, country,
                                             browser, os, device)
       select $1, to_timestamp(at / 1000.0), visitor, name, path, entry, referrer_host, utm_source,
              utm_medium, utm_campaign, country, browser, os, device
         from unnest($2::float8[], $3::bigint[], $4::text[], $5::text[], $6::boolean[],
                     $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[],
                     $13::text[], $14::text[])
              as t(at, visitor, name, path, entry, referrer_host, utm_source, utm_medium,
                   utm_campaign, country, browser, os, device)`,
      [
        site,
        column('at'),
        column('visitor'),
        column('name'),
        column('path'),
        column('entry'),
        column('referrer_host'),
        column('utm_source'),
        column('utm_medium'),
        column('utm_campaign'),
        column('country'),
        column('browser'),
        column('os'),
        column('device'),
      ],
    );
    await client.query('commit');
    return site;
  } catch (err) {
    await client.query('rollback');
    throw err;
  } finally {
    client.release();
  }
}

/** Runs the rollup until the site's mark reaches the last closed day (another pass may hold it). */
async function rollUp(site: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    await pool.query('select private.analytics_rollup(1000)');
    const { rows } = await pool.query<{ ready: boolean; mark: string }>(
      `select m.rolled_through::text as mark,
              m.rolled_through >= ((now() - interval '5 minutes') at time zone 'UTC')::date - 1
                as ready
         from private.analytics_rollup_marks m where m.site_id = $1`,
      [site],
    );
    if (rows[0]?.ready) return rows[0].mark;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the rollup never reached the site');
}

async function stats(site: string, from: string, to: string, filters?: unknown, as = owner.id) {
  const outcome = await runAs<{ stats: unknown }>(
    pool,
    user(as),
    'select public.analytics_stats($1, $2, $3, $4) as stats',
    [site, from, to, filters === undefined ? '{}' : JSON.stringify(filters)],
  );
  if (outcome.code) throw new Error(`${outcome.code}: ${outcome.message}`);
  return outcome.rows[0]!.stats;
}

const rollupRows = async (site: string) =>
  (
    await pool.query(
      `select t, kind, value, visitors, visits, pageviews, bounces, events
         from private.analytics_rollups where site_id = $1 order by t, kind, value`,
      [site],
    )
  ).rows;

const bounceRows = async (site: string) =>
  (
    await pool.query(
      'select at, visitor from private.analytics_bounces where site_id = $1 order by at, visitor',
      [site],
    )
  ).rows;

beforeAll(async () => {
  pool = superuserPool(stack.dbUrl);
  owner = await createAuthUser(pool, 'Stats Owner');
  stranger = await createAuthUser(pool, 'Stats Stranger');
});

afterAll(async () => {
  await pool.query('delete from auth.users where id = any($1)', [[owner.id, stranger.id]]);
  await pool.end();
});

describe('analytics_stats against the raw events', () => {
  let site: string;
  let events: Event[];

  beforeAll(async () => {
    events = generate(7, 8);
    site = await siteWith(events);
    await rollUp(site);
  });

  it('rolls up the closed days, and today only until 5 minutes ago', async () => {
    const { rows } = await pool.query<{ day: string }>(
      `select distinct (t at time zone 'UTC')::date::text as day
         from private.analytics_rollups where site_id = $1 and kind = 'day' order by 1`,
      [site],
    );
    const days = rows.map((r) => r.day);
    expect(days.length).toBeGreaterThanOrEqual(6);
    const { rows: marks } = await pool.query<{ partial: Date | null }>(
      'select partial_through as partial from private.analytics_rollup_marks where site_id = $1',
      [site],
    );
    const partial = marks[0]!.partial;
    if (days.includes(today())) {
      expect(partial!.getTime()).toBeLessThanOrEqual(Date.now() - 5 * 60_000);
      expect(dayOf(partial!.getTime())).toBe(today());
    } else {
      // The first minutes after midnight: today has nothing rolled up yet.
      expect(partial).toBeNull();
    }
  });

  it('answers the whole site over a week, today included, as the raw events do', async () => {
    const from = addDays(today(), -6);
    const answer = await stats(site, from, today());
    expect(answer).toEqual(expectedStats(events, from, today()));
    // The data set is not trivial: every breakdown has rows and the page list is cut at 10.
    const top = (answer as { top: Record<string, unknown[]> }).top;
    expect(top.page).toHaveLength(10);
    for (const dim of [...DIMS, 'event']) expect(top[dim]!.length, dim).toBeGreaterThan(0);
  });

  it('compares with the equally long period just before', async () => {
    const from = addDays(today(), -3);
    const to = addDays(today(), -1);
    const answer = (await stats(site, from, to)) as { previous: Totals; totals: Totals };
    const expected = expectedStats(events, from, to);
    expect(answer).toEqual(expected);
    expect(answer.previous.pageviews).toBeGreaterThan(0);
    expect(answer.previous).not.toEqual(answer.totals);
  });

  it.each<[string, Filters]>([
    ['a country', { country: 'DE' }],
    ['a country and a page', { country: 'FR', page: '/pricing' }],
    ['direct traffic', { referrer: '(direct)' }],
    ['a referrer', { referrer: 'news.example' }],
    ['an entry page', { entry_page: '/' }],
    ['a custom event', { event: 'signup' }],
    ['a campaign', { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'launch' }],
    ['browser, OS and device', { browser: 'Chrome', os: 'Android', device: 'tablet' }],
    ['a value nobody has', { page: '/nowhere' }],
  ])('filters on %s as the raw events do', async (_, filters) => {
    const from = addDays(today(), -6);
    expect(await stats(site, from, today(), filters)).toEqual(
      expectedStats(events, from, today(), filters),
    );
  });

  it('counts hours for a single day, rolled up or today’s', async () => {
    for (const day of [addDays(today(), -2), today()]) {
      const answer = (await stats(site, day, day)) as { series: unknown[] };
      expect(answer.series).toHaveLength(24);
      expect(answer).toEqual(expectedStats(events, day, day));
    }
    const filtered = { device: 'desktop' };
    const day = addDays(today(), -1);
    expect(await stats(site, day, day, filtered)).toEqual(
      expectedStats(events, day, day, filtered),
    );
  });

  it('gives every bucket of a range, empty days as zeros', async () => {
    const from = addDays(today(), -20);
    const answer = (await stats(site, from, today())) as {
      series: { t: string; visitors: number }[];
    };
    expect(answer.series).toHaveLength(21);
    expect(answer.series[0]).toEqual({ t: `${from}T00:00:00Z`, visitors: 0, pageviews: 0 });
    expect(answer).toEqual(expectedStats(events, from, today()));
  });

  it('keeps a verdict for each bounced entry of a rolled-up day, and none for later days', async () => {
    // Times in whole microseconds, as Postgres keeps them.
    const { rows } = await pool.query<{ at: string; visitor: string }>(
      `select round(extract(epoch from at) * 1000000)::bigint::text as at, visitor::text
         from private.analytics_bounces where site_id = $1 order by at, visitor`,
      [site],
    );
    const mark = (
      await pool.query<{ mark: string }>(
        'select rolled_through::text as mark from private.analytics_rollup_marks where site_id = $1',
        [site],
      )
    ).rows[0]!.mark;
    const expected = events
      .filter((e) => e.entry && dayOf(e.at) <= mark && bounced(e, events))
      .map((e) => ({ at: Math.round(e.at * 1000), visitor: e.visitor }))
      .sort((a, b) => a.at - b.at || (a.visitor < b.visitor ? -1 : 1));
    expect(expected.length).toBeGreaterThan(10);
    // Not every entry bounced: the verdict tells them apart.
    expect(expected.length).toBeLessThan(
      events.filter((e) => e.entry && dayOf(e.at) <= mark).length,
    );
    // The same entries: visitors in order, times within the microsecond the two roundings allow.
    expect(rows.map((r) => r.visitor)).toEqual(expected.map((e) => e.visitor));
    rows.forEach((r, i) => expect(Math.abs(Number(r.at) - expected[i]!.at)).toBeLessThanOrEqual(1));
  });

  it('a second rollup pass changes nothing', async () => {
    const before = await rollupRows(site);
    const verdicts = await bounceRows(site);
    const mark = await rollUp(site);
    await pool.query('select private.analytics_rollup(1000)');
    expect(await rollupRows(site)).toEqual(before);
    expect(await bounceRows(site)).toEqual(verdicts);
    const { rows } = await pool.query<{ mark: string }>(
      'select rolled_through::text as mark from private.analytics_rollup_marks where site_id = $1',
      [site],
    );
    expect(rows[0]!.mark).toBe(mark);
  });

  it("adds today's later events to its rolled-up part exactly, wherever the part ends", async () => {
    // The open day rolled up until different moments: visits and visitors on both sides of it.
    for (const minutesAgo of [180, 47, 6]) {
      const { rows } = await pool.query<{ done: boolean }>(
        `select private.analytics_rollup_today($1, now() - make_interval(mins => $2)) as done`,
        [site, minutesAgo],
      );
      const from = addDays(today(), -6);
      expect(await stats(site, from, today()), `${minutesAgo} min`).toEqual(
        expectedStats(events, from, today()),
      );
      expect(await stats(site, today(), today()), `${minutesAgo} min`).toEqual(
        expectedStats(events, today(), today()),
      );
      // A part that would end yesterday (just after midnight) is not made; the check still
      // holds. The last minutes may have no events; three hours have.
      if (!rows[0]!.done || minutesAgo < 180) continue;
      const { rows: tail } = await pool.query<{ n: number }>(
        `select count(*)::int as n from private.analytics_events
          where site_id = $1 and at >= now() - make_interval(mins => $2)`,
        [site, minutesAgo],
      );
      expect(tail[0]!.n, 'events after the rolled-up part').toBeGreaterThan(0);
    }
  });
});

describe('rollups outlive raw events', () => {
  it('keeps the whole-site figures of days whose raw events are gone; filters see what is kept', async () => {
    const events = generate(11, 6);
    const site = await siteWith(events);
    await rollUp(site);
    // As the retention sweep would: the raw events of the oldest days go.
    const cut = addDays(today(), -3);
    await pool.query(`delete from private.analytics_events where site_id = $1 and at < $2::date`, [
      site,
      cut,
    ]);
    const from = addDays(today(), -5);
    expect(await stats(site, from, today())).toEqual(expectedStats(events, from, today()));
    const kept = events.filter((e) => dayOf(e.at) >= cut);
    expect(await stats(site, from, today(), { country: 'US' })).toEqual(
      expectedStats(kept, from, today(), { country: 'US' }),
    );
  });
});

describe('bounce verdicts', () => {
  it("are deleted by the scheduled sweep with the events, past the site's retention", async () => {
    const site = await siteWith([]);
    await pool.query('update public.analytics_sites set retention_days = 30 where id = $1', [site]);
    await pool.query(
      `insert into private.analytics_bounces (site_id, at, visitor)
       values ($1, now() - interval '31 days', 1), ($1, now() - interval '29 days', 2)`,
      [site],
    );
    await commitAsService(pool, 'select public.sweep_retention()', []);
    const { rows } = await pool.query<{ visitor: string }>(
      'select visitor::text from private.analytics_bounces where site_id = $1',
      [site],
    );
    expect(rows).toEqual([{ visitor: '2' }]);
  });
});

describe('refusals and strangers', () => {
  let site: string;
  beforeAll(async () => {
    site = await siteWith(generate(3, 1));
  });

  const refused = async (from: string, to: string, filters: unknown = {}) => {
    const outcome = await runAs(
      pool,
      user(owner.id),
      'select public.analytics_stats($1, $2, $3, $4) as stats',
      [site, from, to, JSON.stringify(filters)],
    );
    return { code: outcome.code, message: outcome.message };
  };

  it('refuses ranges longer than 400 days or ending before they start', async () => {
    const to = today();
    expect(await refused(addDays(to, -400), to)).toEqual({
      code: '22023',
      message: expect.stringMatching(/at most 400 days/),
    });
    expect(await refused(to, addDays(to, -1))).toEqual({
      code: '22023',
      message: expect.stringMatching(/starts .* after it ends/),
    });
    // 400 days is allowed.
    expect((await refused(addDays(to, -399), to)).code).toBeUndefined();
  });

  it('refuses unknown filters and values that are not strings', async () => {
    const to = today();
    expect(await refused(to, to, { city: 'Berlin' })).toEqual({
      code: '22023',
      message: expect.stringMatching(/Unknown filter "city"/),
    });
    expect(await refused(to, to, { country: 1 })).toEqual({
      code: '22023',
      message: expect.stringMatching(/"country" takes a string/),
    });
    expect((await refused(to, to, ['country'])).code).toBe('22023');
    expect((await refused(to, to, { country: 'DE' })).code).toBeUndefined();
  });

  it('answers null to anyone but the owner, and for sites that do not exist', async () => {
    expect(await stats(site, today(), today(), {}, stranger.id)).toBeNull();
    expect(
      await stats('00000000-0000-4000-8000-000000000000', today(), today(), {}, owner.id),
    ).toBeNull();
  });
});

describe('visitors now and the live row', () => {
  const visitorsNow = async (site: string, as = owner.id) => {
    const outcome = await runAs<{ n: number | null }>(
      pool,
      user(as),
      'select public.analytics_visitors_now($1) as n',
      [site],
    );
    if (outcome.code) throw new Error(outcome.message);
    return outcome.rows[0]!.n;
  };

  it('counts the distinct visitors of the last 5 minutes, for the owner only', async () => {
    const now = Date.now();
    const recent = (minutes: number, visitor: string): Event => ({
      ...generate(5, 1)[0]!,
      at: now - minutes * 60_000,
      visitor,
    });
    const site = await siteWith([
      recent(4, '1'),
      recent(1, '1'),
      recent(2, '2'),
      recent(0.5, '3'),
      recent(6, '4'),
      recent(30, '5'),
    ]);
    expect(await visitorsNow(site)).toBe(3);
    expect(await visitorsNow(site, stranger.id)).toBeNull();
  });

  it('ingestion rewrites the live row at most every 5 seconds', async () => {
    const site = await siteWith([]);
    const collect = (ip: string) =>
      commitAsService<{ answer: { status: string } }>(
        pool,
        `select public.analytics_collect(p_site_id => $1, p_host => 'stats.example.test',
            p_ip => $2, p_client_key => $2, p_user_agent => 'Mozilla/5.0 test',
            p_name => 'pageview', p_path => '/') as answer`,
        [site, ip],
      );
    const live = async () =>
      (
        await pool.query<{ user_id: string; visitors_now: number; updated_at: Date }>(
          'select user_id, visitors_now, updated_at from public.analytics_live where site_id = $1',
          [site],
        )
      ).rows;

    expect((await collect('192.0.2.10'))[0]!.answer.status).toBe('accepted');
    const [first] = await live();
    expect(first).toMatchObject({ user_id: owner.id, visitors_now: 1 });
    // A burst from other visitors within the 5 seconds leaves the row alone.
    for (const ip of ['192.0.2.11', '192.0.2.12', '192.0.2.13']) await collect(ip);
    expect(await live()).toEqual([first]);
    // Once the row is 5 seconds old, the next event rewrites it with the count of now.
    await pool.query(
      `update public.analytics_live set updated_at = updated_at - interval '6 seconds'
        where site_id = $1`,
      [site],
    );
    await collect('192.0.2.14');
    const [second] = await live();
    expect(second!.visitors_now).toBe(5);
    expect(second!.updated_at.getTime()).toBeGreaterThan(first!.updated_at.getTime());
    expect(await visitorsNow(site)).toBe(5);
  });
});

describe('deletion', () => {
  const leftOf = async (site: string) => {
    const { rows } = await pool.query<{ n: number }>(
      `select (select count(*) from private.analytics_events where site_id = $1)
            + (select count(*) from private.analytics_rollups where site_id = $1)
            + (select count(*) from private.analytics_rollup_marks where site_id = $1)
            + (select count(*) from public.analytics_live where site_id = $1) as n`,
      [site],
    );
    return Number(rows[0]!.n);
  };

  it('deleting a site or its account removes its events, rollups, mark and live row', async () => {
    const account = await createAuthUser(pool, 'Stats Leaver');
    const sites = [
      await siteWith(generate(13, 3), owner.id),
      await siteWith(generate(17, 3), account.id),
    ];
    for (const site of sites) {
      await rollUp(site);
      await pool.query(
        `insert into public.analytics_live (site_id, user_id, visitors_now, updated_at)
         select id, user_id, 1, now() from public.analytics_sites where id = $1`,
        [site],
      );
      expect(await leftOf(site)).toBeGreaterThan(3);
    }
    await pool.query('delete from public.analytics_sites where id = $1', [sites[0]]);
    await pool.query('delete from auth.users where id = $1', [account.id]);
    for (const site of sites) expect(await leftOf(site)).toBe(0);
  });
});
