// Target verification at the SQL level, as PostgREST runs each request: the verified flag is the
// database's (no owner, no writer can set it), the confirmation tables and tokens are nobody's to
// read, and user B can neither resend nor confirm for user A. Denied means error 42501, or
// nothing found and nothing changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import {
  asAnon,
  asUser,
  createAuthUser,
  createForm,
  runAs,
  serviceRole,
  superuserPool,
  user,
  withActor,
  type TestUser,
} from '../support/db.ts';
import { testStack } from '../support/stack.ts';

const DENIED = '42501';

let pool: pg.Pool;
let alice: TestUser;
let bob: TestUser;
let aliceForm: string;
const TARGET = 'shared-inbox@elsewhere.example.test';

beforeAll(async () => {
  pool = superuserPool(testStack().dbUrl);
  alice = await createAuthUser(pool, 'Alice');
  bob = await createAuthUser(pool, 'Bob');
  aliceForm = await createForm(pool, alice.id, { name: 'Alice contact', target_email: TARGET });
});

afterAll(async () => {
  await pool?.query('delete from auth.users where id = any($1)', [
    [alice?.id, bob?.id].filter(Boolean),
  ]);
  await pool?.end();
});

const requestsOf = async (userId: string) =>
  (
    await pool.query<{ n: number }>(
      'select count(*)::int as n from private.target_email_confirmations where user_id = $1',
      [userId],
    )
  ).rows[0]!.n;

describe('forms.target_verified', () => {
  it('is readable by the owner', async () => {
    const res = await asUser(
      pool,
      alice.id,
      'select target_verified from public.forms where id = $1',
      [aliceForm],
    );
    expect(res.rows).toEqual([{ target_verified: false }]);
  });

  it('cannot be set by the owner, on insert or update', async () => {
    const insert = await asUser(
      pool,
      alice.id,
      `insert into public.forms (name, target_email, allowed_origin, target_verified)
       values ('x', 'victim@elsewhere.example.test', 'https://a.example', true)`,
    );
    expect(insert.code).toBe(DENIED);
    const update = await asUser(
      pool,
      alice.id,
      'update public.forms set target_verified = true where id = $1',
      [aliceForm],
    );
    expect(update.code).toBe(DENIED);
  });

  it('follows the address whatever a writer sends, even the service role', async () => {
    await withActor(pool, serviceRole, async (query) => {
      await query('update public.forms set target_verified = true where id = $1', [aliceForm]);
      const { rows } = await query('select target_verified from public.forms where id = $1', [
        aliceForm,
      ]);
      expect(rows).toEqual([{ target_verified: false }]);
    });
  });

  it("is true at once for the owner's own account e-mail, in any case", async () => {
    await withActor(pool, user(alice.id), async (query) => {
      const { rows, code } = await query(
        `insert into public.forms (name, target_email, allowed_origin)
         values ('Mine', $1, 'https://a.example') returning target_verified`,
        [alice.email.toUpperCase()],
      );
      expect(code).toBeUndefined();
      expect(rows).toEqual([{ target_verified: true }]);
    });
  });
});

describe('the confirmation data', () => {
  it('is readable and writable by no user or visitor', async () => {
    for (const table of [
      'target_email_confirmations',
      'verified_target_emails',
      'notification_sends',
    ]) {
      expect((await asUser(pool, alice.id, `select * from private.${table}`)).code, table).toBe(
        DENIED,
      );
      expect((await asAnon(pool, `select * from private.${table}`)).code, table).toBe(DENIED);
    }
    const forge = await asUser(
      pool,
      alice.id,
      'insert into private.verified_target_emails (user_id, email) values ($1, $2)',
      [alice.id, 'victim@elsewhere.example.test'],
    );
    expect(forge.code).toBe(DENIED);
  });

  it("keeps the confirmation mail (and its link) out of the owner's sight", async () => {
    await withActor(
      pool,
      user(alice.id),
      async (query) => {
        const { rows, code } = await query(
          "select id from public.email_deliveries where kind = 'target_confirmation'",
        );
        expect(code).toBeUndefined();
        expect(rows).toEqual([]);
      },
      (setup) =>
        setup(
          `insert into public.email_deliveries (kind, user_id, recipient, subject, text_body, html_body)
           values ('target_confirmation', $1, $2, 's', 'token inside', 'h')`,
          [alice.id, TARGET],
        ),
    );
  });

  it('lets no user write why an entry was not e-mailed', async () => {
    const res = await asUser(
      pool,
      alice.id,
      'update public.entries set notification_skipped = null where form_id = $1',
      [aliceForm],
    );
    expect(res.code).toBe(DENIED);
  });
});

describe('resend and confirm', () => {
  it('are not for visitors to resend', async () => {
    const res = await asAnon(pool, 'select public.resend_target_confirmation($1)', [aliceForm]);
    expect(res.code).toBe(DENIED);
  });

  it("do not let B resend A's confirmation", async () => {
    const before = await requestsOf(alice.id);
    const res = await runAs(
      pool,
      user(bob.id),
      'select public.resend_target_confirmation($1) as r',
      [aliceForm],
    );
    expect(res.rows).toEqual([{ r: { status: 'not_found' } }]);
    expect(await requestsOf(bob.id)).toBe(0);
    expect(await requestsOf(alice.id)).toBe(before);
  });

  it("do not let B confirm A's address without its token", async () => {
    for (const token of [randomBytes(32).toString('hex'), aliceForm, TARGET]) {
      const res = await runAs(pool, user(bob.id), 'select public.confirm_target_email($1) as r', [
        token,
      ]);
      expect(res.rows).toEqual([{ r: { status: 'invalid' } }]);
    }
    const { rows } = await pool.query('select target_verified from public.forms where id = $1', [
      aliceForm,
    ]);
    expect(rows).toEqual([{ target_verified: false }]);
  });

  it('keep composing mails and the internal helpers to the service role', async () => {
    const calls = [
      "select public.compose_target_confirmations('https://evil.example/?t=', 60, 0, 100, 100, 10)",
      `select public.is_target_verified('${alice.id}', '${TARGET}')`,
    ];
    for (const sql of calls) {
      expect((await asAnon(pool, sql)).code, sql).toBe(DENIED);
      expect((await asUser(pool, alice.id, sql)).code, sql).toBe(DENIED);
    }
    expect(
      (await runAs(pool, serviceRole, calls[0]!)).code,
      'the form endpoint composes as the service role',
    ).toBeUndefined();
  });
});
