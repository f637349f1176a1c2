// Owners' campaigns for the sending tests and the campaign benchmark: an owner (backdated past
// the new-account week unless asked otherwise), a list of confirmed subscribers written in one
// statement, a campaign, and its start as the owner's own call.
import type pg from 'pg';
import { createAuthUser } from './db.ts';

export interface SeededCampaign {
  userId: string;
  listId: string;
  campaignId: string;
  /** Subscribers' addresses are `${prefix}-${n}@example.test`, n from 1. */
  prefix: string;
}

export interface SeedOptions {
  subscribers: number;
  /** A label in the addresses and names (unique per test). */
  label: string;
  /** An account created now (the new-account ceiling applies); default: 30 days old. */
  newAccount?: boolean;
  /** An existing owner instead of a new one. */
  ownerId?: string;
  subject?: string;
  body?: string;
}

export async function seedCampaign(pool: pg.Pool, opts: SeedOptions): Promise<SeededCampaign> {
  const owner = opts.ownerId
    ? { id: opts.ownerId }
    : await createAuthUser(pool, `Sender ${opts.label}`);
  if (!opts.newAccount && !opts.ownerId)
    await pool.query(
      `update auth.users set created_at = now() - interval '30 days' where id = $1`,
      [owner.id],
    );
  const list = await pool.query<{ id: string }>(
    `insert into public.newsletter_lists (user_id, name, from_name, reply_to, allowed_origin)
     values ($1, $2, 'Ada from Example', 'ada@example.test', 'https://site.example.test')
     returning id`,
    [owner.id, `News ${opts.label}`],
  );
  const listId = list.rows[0]!.id;
  const prefix = `${opts.label}-${owner.id.slice(0, 6)}`.toLowerCase();
  await pool.query(
    `insert into public.list_subscribers
       (list_id, user_id, email, name, status, source, consent_at, consent_statement, confirmed_at)
     select $1, $2, $3 || '-' || n || '@example.test', 'Reader ' || n, 'confirmed', 'import', now(),
            'They signed up at our shop counter.', now()
       from generate_series(1, $4::integer) n`,
    [listId, owner.id, prefix, opts.subscribers],
  );
  const campaign = await pool.query<{ id: string }>(
    `insert into public.campaigns (user_id, list_id, subject, body_markdown)
     values ($1, $2, $3, $4) returning id`,
    [
      owner.id,
      listId,
      opts.subject ?? `Spring news ${opts.label}`,
      opts.body ??
        '# Hello\n\nNew things in the shop. <b>raw</b>\n\n[Our site](https://example.test/)',
    ],
  );
  return { userId: owner.id, listId, campaignId: campaign.rows[0]!.id, prefix };
}

/** campaign_start as the owner (now, or scheduled for `at`); its answer. */
export async function startCampaign(
  pool: pg.Pool,
  seeded: Pick<SeededCampaign, 'userId' | 'campaignId'>,
  at: Date | null = null,
): Promise<Record<string, unknown>> {
  return asOwner(pool, seeded.userId, `select public.campaign_start($1, $2) as r`, [
    seeded.campaignId,
    at?.toISOString() ?? null,
  ]);
}

/** campaign_control as the owner; its answer. */
export function controlCampaign(
  pool: pg.Pool,
  seeded: Pick<SeededCampaign, 'userId' | 'campaignId'>,
  action: 'pause' | 'resume' | 'cancel' | 'unschedule',
): Promise<Record<string, unknown>> {
  return asOwner(pool, seeded.userId, `select public.campaign_control($1, $2) as r`, [
    seeded.campaignId,
    action,
  ]);
}

async function asOwner(
  pool: pg.Pool,
  userId: string,
  sql: string,
  params: unknown[],
): Promise<Record<string, unknown>> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('set local role authenticated');
    await client.query("select set_config('request.jwt.claims', $1, true)", [
      JSON.stringify({ sub: userId, role: 'authenticated' }),
    ]);
    const { rows } = await client.query<{ r: Record<string, unknown> }>(sql, params);
    await client.query('commit');
    return rows[0]!.r;
  } catch (err) {
    await client.query('rollback');
    throw err;
  } finally {
    client.release();
  }
}

/** The campaign's status and counts, and its messages by status. */
export async function campaignState(pool: pg.Pool, campaignId: string) {
  const c = await pool.query<{
    status: string;
    recipients: number;
    sent: number;
    failed: number;
    bounced: number;
  }>(`select status, recipients, sent, failed, bounced from public.campaigns where id = $1`, [
    campaignId,
  ]);
  const m = await pool.query<{ status: string; n: number }>(
    `select status, count(*)::int as n from private.campaign_messages where campaign_id = $1
      group by status`,
    [campaignId],
  );
  return {
    ...c.rows[0]!,
    messages: Object.fromEntries(m.rows.map((r) => [r.status, r.n])) as Record<string, number>,
  };
}
