// Test data for the owner's newsletter pages, and their tables and functions in the tests'
// database (src/components/testing/supabase-server.ts): lists with the database's defaults and
// trigger (origin normalised), subscribers, campaigns, and import_list_subscribers,
// campaign_start and campaign_control acting on the stored rows as the database does.
import { pgError, supabaseDb, type Row } from '../../../components/testing/supabase-server';
import type { Campaign, NewsletterList, Subscriber } from '../newsletter-types';

export const OWNER_ID = '00000000-0000-4000-8000-000000000001';
let sequence = 0;
const uuid = (prefix: string, n: number) =>
  `00000000-0000-4000-${prefix}-${String(n).padStart(12, '0')}`;
const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 10, minute)).toISOString();

export function makeList(overrides: Partial<NewsletterList> = {}): NewsletterList {
  sequence += 1;
  return {
    id: uuid('a100', sequence),
    user_id: OWNER_ID,
    name: `List ${sequence}`,
    from_name: null,
    reply_to: null,
    allowed_origin: 'https://example.com',
    confirm_message: '',
    captcha_provider: null,
    captcha_site_key: null,
    site_list: false,
    created_at: at(sequence),
    updated_at: at(sequence),
    ...overrides,
  };
}

export function makeSubscriber(
  list: Pick<NewsletterList, 'id'>,
  overrides: Partial<Subscriber> = {},
): Subscriber {
  sequence += 1;
  const status = overrides.status ?? 'confirmed';
  return {
    id: uuid('b100', sequence),
    list_id: list.id,
    user_id: OWNER_ID,
    email: `reader${sequence}@example.com`,
    name: null,
    status,
    source: 'form',
    consent_at: status === 'pending' ? null : at(sequence),
    consent_statement: null,
    created_at: at(sequence),
    confirmed_at: status === 'pending' ? null : at(sequence),
    unsubscribed_at: status === 'unsubscribed' ? at(sequence) : null,
    bounced_at: status === 'bounced' ? at(sequence) : null,
    ...overrides,
  };
}

export function makeCampaign(
  list: Pick<NewsletterList, 'id'>,
  overrides: Partial<Campaign> = {},
): Campaign {
  sequence += 1;
  return {
    id: uuid('c100', sequence),
    user_id: OWNER_ID,
    list_id: list.id,
    subject: '',
    body_markdown: '',
    from_name: null,
    reply_to: null,
    status: 'draft',
    scheduled_at: null,
    started_at: null,
    finished_at: null,
    recipients: 0,
    sent: 0,
    failed: 0,
    bounced: 0,
    unsubscribed: 0,
    created_at: at(sequence),
    updated_at: at(sequence),
    ...overrides,
  };
}

const EMAIL = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/i;

/** Seeds the owner's lists, subscribers and campaigns, and the feature's functions over them. */
export function seedNewsletter({
  lists = [],
  subscribers = [],
  campaigns = [],
}: { lists?: NewsletterList[]; subscribers?: Subscriber[]; campaigns?: Campaign[] } = {}) {
  supabaseDb.define('newsletter_lists', {
    insert: (row) => ({
      ...makeList(),
      ...row,
      allowed_origin: String(row.allowed_origin).toLowerCase().replace(/\/$/, ''),
    }),
    update: (before, values) => ({ ...before, ...values, updated_at: new Date().toISOString() }),
  });
  supabaseDb.define('list_subscribers', {});
  supabaseDb.define('campaigns', {
    insert: (row) => ({ ...makeCampaign({ id: String(row.list_id) }), ...row }),
    update: (before, values) => ({ ...before, ...values, updated_at: new Date().toISOString() }),
  });
  supabaseDb.seed({ newsletter_lists: lists, list_subscribers: subscribers, campaigns });

  supabaseDb.rpc('import_list_subscribers', (args: Row) => {
    const statement = String(args.p_consent_statement ?? '').trim();
    if (statement.length < 10 || statement.length > 500)
      throw pgError(
        '22023',
        'Say how these people agreed to hear from you (10 to 500 characters).',
      );
    const rows = args.p_rows as { email?: string; name?: string }[];
    if (rows.length > 10_000) throw pgError('22023', 'Import at most 10 000 rows at a time.');
    const stored = supabaseDb.rows('list_subscribers');
    const listId = String(args.p_list_id);
    const seen = new Set(
      stored.filter((row) => row.list_id === listId).map((row) => String(row.email).toLowerCase()),
    );
    let added = 0;
    const duplicates: { row: number; email: string }[] = [];
    const invalid: { row: number; email: string; reason: string }[] = [];
    rows.forEach((given, index) => {
      const email = String(given.email ?? '')
        .trim()
        .toLowerCase();
      if (!EMAIL.test(email) || email.includes('..'))
        return invalid.push({ row: index + 1, email, reason: 'Not an e-mail address' });
      if (seen.has(email)) return duplicates.push({ row: index + 1, email });
      seen.add(email);
      added += 1;
      stored.push(
        makeSubscriber(
          { id: listId },
          {
            email,
            name: given.name ?? null,
            source: 'import',
            consent_statement: statement,
            created_at: new Date().toISOString(),
          },
        ),
      );
    });
    return { added, duplicates, invalid };
  });

  const campaignRow = (id: unknown) => {
    const rows = supabaseDb.rows('campaigns');
    const index = rows.findIndex((row) => row.id === id);
    if (index === -1) throw pgError('PT404', 'This campaign no longer exists.');
    return { rows, index, row: rows[index] };
  };

  supabaseDb.rpc('campaign_start', (args: Row) => {
    const { rows, index, row } = campaignRow(args.p_campaign_id);
    if (row.status !== 'draft' && row.status !== 'scheduled')
      throw pgError('55000', 'This campaign has already been sent or is sending.');
    if (!String(row.subject).trim() || !String(row.body_markdown).trim())
      throw pgError('22023', 'Write a subject and a message first.');
    if (args.p_at && Date.parse(String(args.p_at)) > Date.now()) {
      rows[index] = { ...row, status: 'scheduled', scheduled_at: args.p_at };
      return { status: 'scheduled', scheduled_at: args.p_at };
    }
    const recipients = supabaseDb
      .rows('list_subscribers')
      .filter((s) => s.list_id === row.list_id && s.status === 'confirmed').length;
    rows[index] = {
      ...row,
      status: 'sending',
      scheduled_at: null,
      started_at: new Date().toISOString(),
      recipients,
    };
    return { status: 'sending', recipients };
  });

  supabaseDb.rpc('campaign_control', (args: Row) => {
    const { rows, index, row } = campaignRow(args.p_campaign_id);
    const next = (
      {
        pause: row.status === 'sending' ? 'paused' : null,
        resume: row.status === 'paused' ? 'sending' : null,
        cancel: ['scheduled', 'sending', 'paused'].includes(String(row.status))
          ? 'cancelled'
          : null,
        unschedule: row.status === 'scheduled' ? 'draft' : null,
      } as Record<string, string | null>
    )[String(args.p_action)];
    if (!next)
      throw pgError(
        '55000',
        `A ${String(row.status)} campaign cannot be ${String(args.p_action)}d.`,
      );
    rows[index] = {
      ...row,
      status: next,
      scheduled_at: null,
      finished_at: next === 'cancelled' ? new Date().toISOString() : row.finished_at,
    };
    return { status: next };
  });
}
