-- Newsletter
--
-- Owners' lists, their subscribers (double opt-in, hashed link tokens, per-client limits) and
-- campaigns. The site's own footer signup is one of these lists: the one marked `site_list`
-- (set_site_list()), so confirmation, unsubscribe and sending are the owners' machinery.
--
-- Part of the declarative schema (supabase/schemas/, loaded in file-name order, as
-- config.toml's [db.migrations] schema_paths says): the current definition of this capability.
-- Change it here, then `npm run db:diff` prints the migration to add to supabase/migrations/.

-- Function bodies may name objects of later files.
set check_function_bodies = off;

-- ------------------------------------------------------------------------------------------------
-- Footer sign-ups from before the site's list
--
-- The footer once kept its own list here. set_site_list() moves these rows (and their links'
-- tokens) into the list it marks, and the sweep forgets the unconfirmed ones; nothing else writes
-- them. newsletter_rate_limits keeps take_fixed_window()'s per-client windows for p_form_id null.
-- ------------------------------------------------------------------------------------------------
create table private.newsletter_subscribers (
  id uuid default gen_random_uuid() not null,
  email text not null,
  created_at timestamp with time zone default now() not null,
  status text default 'pending'::text not null,
  confirmed_at timestamp with time zone,
  unsubscribed_at timestamp with time zone,
  last_confirmation_at timestamp with time zone,
  constraint newsletter_subscribers_pkey PRIMARY KEY (id),
  constraint newsletter_subscribers_confirmed_has_time CHECK (((status <> 'confirmed'::text) OR (confirmed_at IS NOT NULL))),
  constraint newsletter_subscribers_email_format CHECK (((char_length(email) <= 320) AND (email ~* '^[a-z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$'::text))),
  constraint newsletter_subscribers_status CHECK ((status = ANY (ARRAY['pending'::text, 'confirmed'::text, 'unsubscribed'::text]))),
  constraint newsletter_subscribers_unsubscribed_has_time CHECK (((status <> 'unsubscribed'::text) OR (unsubscribed_at IS NOT NULL)))
);
create index newsletter_subscribers_pending_idx ON private.newsletter_subscribers (last_confirmation_at) WHERE (status = 'pending'::text);
create unique index newsletter_subscribers_email_key ON private.newsletter_subscribers (lower(email));
comment on table private.newsletter_subscribers is
  'Footer sign-ups from before the site''s list; set_site_list() moves them into it.';
comment on column private.newsletter_subscribers.status is
  'pending (awaiting confirmation), confirmed (receives the newsletter) or unsubscribed.';
comment on column private.newsletter_subscribers.last_confirmation_at is
  'When the last confirmation e-mail was queued; at most one per address per cooldown.';

create table private.newsletter_tokens (
  token_hash text not null,
  subscriber_id uuid not null,
  purpose text not null,
  expires_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  constraint newsletter_tokens_pkey PRIMARY KEY (token_hash),
  constraint newsletter_tokens_subscriber_id_fkey FOREIGN KEY (subscriber_id) REFERENCES private.newsletter_subscribers(id) ON DELETE CASCADE,
  constraint newsletter_tokens_expiry CHECK (((purpose = 'confirm'::text) = (expires_at IS NOT NULL))),
  constraint newsletter_tokens_hash_format CHECK ((token_hash ~ '^[0-9a-f]{64}$'::text)),
  constraint newsletter_tokens_purpose CHECK ((purpose = ANY (ARRAY['confirm'::text, 'unsubscribe'::text])))
);
create index newsletter_tokens_expiry_idx ON private.newsletter_tokens (expires_at) WHERE (expires_at IS NOT NULL);
create index newsletter_tokens_subscriber_idx ON private.newsletter_tokens (subscriber_id);
comment on table private.newsletter_tokens is
  'SHA-256 (hex) of the links of footer sign-ups from before the site''s list; set_site_list() moves the live ones.';

create table private.newsletter_rate_limits (
  ip_hash text not null,
  minute_start timestamp with time zone not null,
  minute_hits integer default 0 not null,
  day_start timestamp with time zone not null,
  day_hits integer default 0 not null,
  constraint newsletter_rate_limits_pkey PRIMARY KEY (ip_hash)
);
create index newsletter_rate_limits_day_idx ON private.newsletter_rate_limits (day_start);
comment on table private.newsletter_rate_limits is
  'Requests per client (salted IP hash) in its current minute and day, as take_fixed_window() counts them when no form is named.';

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table private.newsletter_subscribers enable row level security;

alter table private.newsletter_tokens enable row level security;

alter table private.newsletter_rate_limits enable row level security;

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table private.newsletter_subscribers from public, anon, authenticated, service_role;
revoke all on table private.newsletter_tokens from public, anon, authenticated, service_role;
revoke all on table private.newsletter_rate_limits from public, anon, authenticated, service_role;

-- ================================================================================================
-- Owners' lists and campaigns
--
-- Every owner's own audience: lists, their subscribers (double opt-in through the list's signup
-- form, or imported under a consent statement the owner gives), and campaigns to a list's confirmed
-- subscribers. A campaign's recipients are written once, when it starts, one row per subscriber:
-- the primary key (campaign, subscriber) is what makes "exactly one message per recipient" a
-- database rule, whatever a sender does after a crash. Sending itself (the outbox's campaign run)
-- claims these rows under a lease.
-- ================================================================================================
create table public.newsletter_lists (
  id uuid default gen_random_uuid() not null,
  user_id uuid default auth.uid() not null,
  name text not null,
  from_name text,
  reply_to text,
  allowed_origin text not null,
  confirm_message text default ''::text not null,
  captcha_provider text,
  captcha_site_key text,
  site_list boolean default false not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint newsletter_lists_pkey PRIMARY KEY (id),
  constraint newsletter_lists_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint newsletter_lists_name CHECK (char_length(name) >= 1 and char_length(name) <= 100 and btrim(name) <> ''),
  constraint newsletter_lists_from_name CHECK (
    from_name is null
    or (char_length(from_name) >= 1 and char_length(from_name) <= 60
        and btrim(from_name) <> ''
        and from_name !~ '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069@＠<>＜＞]')),
  constraint newsletter_lists_reply_to CHECK (
    reply_to is null
    or (char_length(reply_to) <= 254
        and reply_to ~* '^[a-z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$')),
  constraint newsletter_lists_allowed_origin CHECK (char_length(allowed_origin) <= 300 and allowed_origin ~ '^https?://([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?$'),
  constraint newsletter_lists_confirm_message CHECK (char_length(confirm_message) <= 1000),
  constraint newsletter_lists_captcha_provider CHECK (captcha_provider = any (array['turnstile'::text, 'hcaptcha'::text, 'recaptcha'::text])),
  constraint newsletter_lists_captcha_complete CHECK ((captcha_provider is null) = (captcha_site_key is null))
);
create index newsletter_lists_user_id_idx ON public.newsletter_lists (user_id);
-- One list takes the site's own footer signups.
create unique index newsletter_lists_site_list_key ON public.newsletter_lists (site_list) WHERE site_list;
comment on table public.newsletter_lists is
  'An owner''s mailing lists: the sender name and reply-to of their mail, the site their signup form posts from, and the owner''s words in the confirmation e-mail.';

create table public.list_subscribers (
  id uuid default gen_random_uuid() not null,
  list_id uuid not null,
  user_id uuid not null,
  email text not null,
  name text,
  status text default 'pending'::text not null,
  source text not null,
  consent_at timestamp with time zone,
  consent_statement text,
  created_at timestamp with time zone default now() not null,
  confirmed_at timestamp with time zone,
  unsubscribed_at timestamp with time zone,
  bounced_at timestamp with time zone,
  constraint list_subscribers_pkey PRIMARY KEY (id),
  constraint list_subscribers_list_id_fkey FOREIGN KEY (list_id) REFERENCES public.newsletter_lists(id) ON DELETE CASCADE,
  constraint list_subscribers_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint list_subscribers_email CHECK (char_length(email) <= 254 and email ~* '^[a-z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$'),
  constraint list_subscribers_name CHECK (name is null or (char_length(name) <= 100 and name !~ '[\x01-\x1f\x7f-\x9f]')),
  constraint list_subscribers_status CHECK (status = any (array['pending'::text, 'confirmed'::text, 'unsubscribed'::text, 'bounced'::text])),
  constraint list_subscribers_source CHECK (source = any (array['form'::text, 'import'::text])),
  -- Nobody is mailed a campaign without a recorded consent: their own confirmation, or the
  -- owner's statement for an imported address.
  constraint list_subscribers_confirmed_has_consent CHECK (status <> 'confirmed' or consent_at is not null),
  constraint list_subscribers_import_has_statement CHECK (source <> 'import' or (consent_statement is not null and char_length(consent_statement) between 10 and 500))
);
create unique index list_subscribers_list_email_key ON public.list_subscribers (list_id, lower(email));
create index list_subscribers_user_id_idx ON public.list_subscribers (user_id);
-- The subscribers table's pages and the export, newest first.
create index list_subscribers_list_created_idx ON public.list_subscribers (list_id, created_at DESC, id DESC);
create unique index list_subscribers_id_user_id_key ON public.list_subscribers (id, user_id);
alter table public.list_subscribers replica identity using index list_subscribers_id_user_id_key;
comment on table public.list_subscribers is
  'Subscribers of owners'' lists: pending until they confirm (or imported under the owner''s consent statement), then confirmed, unsubscribed or bounced.';

create table public.campaigns (
  id uuid default gen_random_uuid() not null,
  user_id uuid default auth.uid() not null,
  list_id uuid not null,
  subject text default ''::text not null,
  body_markdown text default ''::text not null,
  -- null: the list's sender name and reply-to.
  from_name text,
  reply_to text,
  status text default 'draft'::text not null,
  scheduled_at timestamp with time zone,
  started_at timestamp with time zone,
  finished_at timestamp with time zone,
  recipients integer default 0 not null,
  sent integer default 0 not null,
  failed integer default 0 not null,
  bounced integer default 0 not null,
  unsubscribed integer default 0 not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint campaigns_pkey PRIMARY KEY (id),
  constraint campaigns_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint campaigns_list_id_fkey FOREIGN KEY (list_id) REFERENCES public.newsletter_lists(id) ON DELETE CASCADE,
  constraint campaigns_subject CHECK (char_length(subject) <= 200 and subject !~ '[\x01-\x1f\x7f-\x9f\u2028\u2029]'),
  constraint campaigns_body CHECK (octet_length(body_markdown) <= 100 * 1024),
  constraint campaigns_from_name CHECK (
    from_name is null
    or (char_length(from_name) >= 1 and char_length(from_name) <= 60
        and btrim(from_name) <> ''
        and from_name !~ '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069@＠<>＜＞]')),
  constraint campaigns_reply_to CHECK (
    reply_to is null
    or (char_length(reply_to) <= 254
        and reply_to ~* '^[a-z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$')),
  constraint campaigns_status CHECK (status = any (array['draft'::text, 'scheduled'::text, 'sending'::text, 'paused'::text, 'cancelled'::text, 'sent'::text])),
  constraint campaigns_scheduled CHECK ((status = 'scheduled') = (scheduled_at is not null)),
  constraint campaigns_counts CHECK (recipients >= 0 and sent >= 0 and failed >= 0 and bounced >= 0 and unsubscribed >= 0 and sent + failed <= recipients)
);
create index campaigns_user_id_idx ON public.campaigns (user_id);
create index campaigns_list_id_idx ON public.campaigns (list_id);
create index campaigns_due_idx ON public.campaigns (scheduled_at) WHERE (status = 'scheduled'::text);
create unique index campaigns_id_user_id_key ON public.campaigns (id, user_id);
alter table public.campaigns replica identity using index campaigns_id_user_id_key;
comment on table public.campaigns is
  'Campaigns to one list''s confirmed subscribers, written in Markdown; the counts follow the sending.';

create table private.campaign_messages (
  campaign_id uuid not null,
  subscriber_id uuid not null,
  status text default 'queued'::text not null,
  attempts integer default 0 not null,
  lease uuid,
  locked_until timestamp with time zone,
  sent_at timestamp with time zone,
  last_error text,
  constraint campaign_messages_pkey PRIMARY KEY (campaign_id, subscriber_id),
  constraint campaign_messages_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES public.campaigns(id) ON DELETE CASCADE,
  constraint campaign_messages_subscriber_id_fkey FOREIGN KEY (subscriber_id) REFERENCES public.list_subscribers(id) ON DELETE CASCADE,
  constraint campaign_messages_status CHECK (status = any (array['queued'::text, 'sending'::text, 'sent'::text, 'failed'::text, 'bounced'::text, 'skipped'::text])),
  constraint campaign_messages_last_error CHECK (char_length(last_error) <= 1000)
);
create index campaign_messages_queued_idx ON private.campaign_messages (campaign_id) WHERE (status = any (array['queued'::text, 'sending'::text]));
comment on table private.campaign_messages is
  'One row per recipient of a campaign, written when it starts: the primary key allows one message per subscriber and campaign.';

create table private.list_subscriber_tokens (
  token_hash text not null,
  subscriber_id uuid not null,
  purpose text default 'confirm'::text not null,
  created_at timestamp with time zone default now() not null,
  expires_at timestamp with time zone,
  constraint list_subscriber_tokens_pkey PRIMARY KEY (token_hash),
  constraint list_subscriber_tokens_subscriber_id_fkey FOREIGN KEY (subscriber_id) REFERENCES public.list_subscribers(id) ON DELETE CASCADE,
  constraint list_subscriber_tokens_hash_format CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  -- Unsubscribe links came with the footer's confirmation mail before its list was an owners' one.
  constraint list_subscriber_tokens_purpose CHECK (purpose = any (array['confirm'::text, 'unsubscribe'::text])),
  constraint list_subscriber_tokens_expiry CHECK ((purpose = 'confirm') = (expires_at is not null))
);
create index list_subscriber_tokens_subscriber_idx ON private.list_subscriber_tokens (subscriber_id, created_at DESC);
create index list_subscriber_tokens_expiry_idx ON private.list_subscriber_tokens (expires_at);
comment on table private.list_subscriber_tokens is
  'SHA-256 (hex) of the confirmation links of list signups (and of the unsubscribe links of earlier footer mail); the tokens themselves are not stored.';

create table private.list_captcha_secrets (
  list_id uuid not null,
  secret text not null,
  updated_at timestamp with time zone default now() not null,
  constraint list_captcha_secrets_pkey PRIMARY KEY (list_id),
  constraint list_captcha_secrets_list_fkey FOREIGN KEY (list_id) REFERENCES public.newsletter_lists(id) ON DELETE CASCADE,
  constraint list_captcha_secrets_secret CHECK (char_length(secret) <= 500 and secret ~ '^[!-~]+$')
);
comment on table private.list_captcha_secrets is
  'CAPTCHA secret keys of lists'' signup forms: set through set_list_captcha(), read by the newsletter function.';

create or replace function private.newsletter_lists_prepare()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  new.name := btrim(new.name);
  new.allowed_origin := regexp_replace(lower(btrim(new.allowed_origin)), '/$', '');
  new.reply_to := nullif(lower(btrim(coalesce(new.reply_to, ''))), '');
  new.updated_at := now();
  return new;
end;
$function$;
revoke all on function private.newsletter_lists_prepare() from public, anon, authenticated, service_role;

create or replace function private.campaigns_prepare()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  -- A campaign goes to a list of its own owner, and is edited only while it is a draft.
  if not exists (select 1 from public.newsletter_lists l where l.id = new.list_id and l.user_id = new.user_id) then
    raise exception 'Choose one of your lists.' using errcode = '23503';
  end if;
  if tg_op = 'UPDATE' and old.status <> 'draft'
     and (new.subject, new.body_markdown, new.list_id, new.from_name, new.reply_to)
         is distinct from (old.subject, old.body_markdown, old.list_id, old.from_name, old.reply_to) then
    raise exception 'Only a draft can be edited.' using errcode = '55000';
  end if;
  new.from_name := nullif(btrim(coalesce(new.from_name, '')), '');
  new.reply_to := nullif(lower(btrim(coalesce(new.reply_to, ''))), '');
  new.updated_at := now();
  return new;
end;
$function$;
revoke all on function private.campaigns_prepare() from public, anon, authenticated, service_role;

create or replace function public.import_list_subscribers(p_list_id uuid, p_rows jsonb, p_consent_statement text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  c_max_rows constant integer := 10000;
  v_statement text := btrim(coalesce(p_consent_statement, ''));
  v_added integer;
  v_invalid jsonb;
  v_duplicates jsonb;
begin
  if (select auth.uid()) is null then
    raise exception 'Sign in to import subscribers.' using errcode = '42501';
  end if;
  perform 1 from public.newsletter_lists l where l.id = p_list_id and l.user_id = (select auth.uid());
  if not found then
    raise exception 'This list no longer exists.' using errcode = 'PT404';
  end if;
  if char_length(v_statement) < 10 or char_length(v_statement) > 500 then
    raise exception 'Say how these people agreed to hear from you (10 to 500 characters).' using errcode = '22023';
  end if;
  if jsonb_typeof(p_rows) <> 'array' or jsonb_array_length(p_rows) > c_max_rows then
    raise exception 'Import at most 10 000 rows at a time.' using errcode = '22023';
  end if;

  -- One import at a time per list, so two imports of one file report their duplicates truly.
  perform pg_advisory_xact_lock(hashtextextended('tinyback.list-import:' || p_list_id::text, 0));
  with given as (
    select r.n::integer as row_number,
           lower(btrim(coalesce(r.v ->> 'email', ''))) as email,
           nullif(btrim(regexp_replace(coalesce(r.v ->> 'name', ''), '[\x01-\x1f\x7f-\x9f]+', ' ', 'g')), '') as name
      from jsonb_array_elements(p_rows) with ordinality r(v, n)
  ),
  judged as (
    select g.*,
           char_length(g.email) > 254
             or g.email !~* '^[a-z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$'
             or g.email ~ '\.\.'
             or char_length(coalesce(g.name, '')) > 100 as invalid
      from given g
  ),
  -- Duplicates: of an earlier valid row of the file, or of an address the list already has.
  valid as (
    select j.*,
           row_number() over (partition by j.email order by j.row_number) > 1
             or exists (select 1 from public.list_subscribers s
                         where s.list_id = p_list_id and lower(s.email) = j.email) as duplicate
      from judged j where not j.invalid
  ),
  added as (
    insert into public.list_subscribers
        (list_id, user_id, email, name, status, source, consent_at, consent_statement, confirmed_at)
      select p_list_id, (select auth.uid()), v.email, v.name, 'confirmed', 'import', now(), v_statement, now()
        from valid v where not v.duplicate
      on conflict do nothing
      returning 1
  )
  select (select count(*)::integer from added),
         (select coalesce(jsonb_agg(jsonb_build_object('row', v.row_number, 'email', v.email) order by v.row_number), '[]'::jsonb)
            from valid v where v.duplicate),
         (select coalesce(jsonb_agg(jsonb_build_object('row', j.row_number, 'email', left(j.email, 254),
                                                       'reason', 'Not an e-mail address') order by j.row_number), '[]'::jsonb)
            from judged j where j.invalid)
    into v_added, v_duplicates, v_invalid;
  return jsonb_build_object('added', v_added, 'duplicates', v_duplicates, 'invalid', v_invalid);
end;
$function$;
comment on function public.import_list_subscribers(p_list_id uuid, p_rows jsonb, p_consent_statement text) is
  'Adds rows [{email, name}] to the caller''s list as confirmed under the consent statement given; reports invalid rows and duplicates, adds nothing twice.';
revoke all on function public.import_list_subscribers(p_list_id uuid, p_rows jsonb, p_consent_statement text) from public, anon, authenticated, service_role;
grant execute on function public.import_list_subscribers(p_list_id uuid, p_rows jsonb, p_consent_statement text) to authenticated;

create or replace function public.campaign_start(p_campaign_id uuid, p_at timestamp with time zone DEFAULT NULL::timestamp with time zone)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_campaign public.campaigns;
  v_recipients integer;
begin
  if (select auth.uid()) is null then
    raise exception 'Sign in to send a campaign.' using errcode = '42501';
  end if;
  select c.* into v_campaign from public.campaigns c
   where c.id = p_campaign_id and c.user_id = (select auth.uid())
     for update;
  if not found then
    raise exception 'This campaign no longer exists.' using errcode = 'PT404';
  end if;
  if v_campaign.status not in ('draft', 'scheduled') then
    raise exception 'This campaign has already been sent or is sending.' using errcode = '55000';
  end if;
  if btrim(v_campaign.subject) = '' or btrim(v_campaign.body_markdown) = '' then
    raise exception 'Write a subject and a message first.' using errcode = '22023';
  end if;
  if p_at is not null and p_at > now() then
    update public.campaigns c set status = 'scheduled', scheduled_at = p_at where c.id = p_campaign_id;
    return jsonb_build_object('status', 'scheduled', 'scheduled_at', p_at);
  end if;

  -- The recipients, once: every confirmed subscriber of the list at this moment.
  insert into private.campaign_messages (campaign_id, subscriber_id)
    select p_campaign_id, s.id from public.list_subscribers s
     where s.list_id = v_campaign.list_id and s.status = 'confirmed'
    on conflict do nothing;
  select count(*)::integer into v_recipients from private.campaign_messages m where m.campaign_id = p_campaign_id;
  update public.campaigns c
     set status = 'sending', scheduled_at = null, started_at = now(), recipients = v_recipients
   where c.id = p_campaign_id;
  return jsonb_build_object('status', 'sending', 'recipients', v_recipients);
end;
$function$;
comment on function public.campaign_start(p_campaign_id uuid, p_at timestamp with time zone) is
  'Sends the caller''s draft now (its recipients fixed: the list''s confirmed subscribers) or schedules it for p_at.';
revoke all on function public.campaign_start(p_campaign_id uuid, p_at timestamp with time zone) from public, anon, authenticated, service_role;
grant execute on function public.campaign_start(p_campaign_id uuid, p_at timestamp with time zone) to authenticated;

create or replace function public.campaign_control(p_campaign_id uuid, p_action text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_status text;
  v_next text;
begin
  if (select auth.uid()) is null then
    raise exception 'Sign in to change a campaign.' using errcode = '42501';
  end if;
  select c.status into v_status from public.campaigns c
   where c.id = p_campaign_id and c.user_id = (select auth.uid())
     for update;
  if not found then
    raise exception 'This campaign no longer exists.' using errcode = 'PT404';
  end if;
  v_next := case
    when p_action = 'pause' and v_status = 'sending' then 'paused'
    when p_action = 'resume' and v_status = 'paused' then 'sending'
    when p_action = 'cancel' and v_status in ('scheduled', 'sending', 'paused') then 'cancelled'
    when p_action = 'unschedule' and v_status = 'scheduled' then 'draft'
  end;
  if v_next is null then
    raise exception 'A % campaign cannot be %d.', v_status, p_action using errcode = '55000';
  end if;
  update public.campaigns c
     set status = v_next,
         scheduled_at = null,
         finished_at = case when v_next = 'cancelled' then now() else c.finished_at end
   where c.id = p_campaign_id;
  -- A cancelled campaign's unsent messages are never sent.
  if v_next = 'cancelled' then
    update private.campaign_messages m set status = 'skipped', lease = null, locked_until = null
     where m.campaign_id = p_campaign_id and m.status = 'queued';
  end if;
  return jsonb_build_object('status', v_next);
end;
$function$;
comment on function public.campaign_control(p_campaign_id uuid, p_action text) is
  'pause, resume, cancel or unschedule the caller''s campaign.';
revoke all on function public.campaign_control(p_campaign_id uuid, p_action text) from public, anon, authenticated, service_role;
grant execute on function public.campaign_control(p_campaign_id uuid, p_action text) to authenticated;

create or replace function public.list_signup_attempt(p_list_id uuid, p_origin text, p_client text, p_caps jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_list public.newsletter_lists;
  v_client text := left(coalesce(p_client, ''), 200);
  v_per_minute integer := coalesce((p_caps ->> 'per_client_minute')::integer, 5);
  v_per_day integer := coalesce((p_caps ->> 'per_client_day')::integer, 20);
begin
  -- No list named: the site's own (its footer signup, which any page of the site may send).
  select l.* into v_list from public.newsletter_lists l
   where (p_list_id is null and l.site_list) or l.id = p_list_id;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;
  if p_list_id is not null
     and regexp_replace(lower(btrim(coalesce(p_origin, ''))), '/$', '') <> v_list.allowed_origin then
    return jsonb_build_object('status', 'foreign_origin');
  end if;
  -- The client's allowance at this owner's lists, counted before anything else is done for the
  -- request (a CAPTCHA check, the signup), whatever its outcome.
  perform pg_advisory_xact_lock(hashtextextended('tinyback.list-client:' || v_list.user_id::text || ':' || v_client, 0));
  if private.ledger_count('list_signup', now() - interval '1 minute', v_per_minute, v_list.user_id, null, null, v_client) >= v_per_minute then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', 60);
  end if;
  if private.ledger_count('list_signup', now() - interval '1 day', v_per_day, v_list.user_id, null, null, v_client) >= v_per_day then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', 3600);
  end if;
  insert into private.action_ledger (kind, user_id, client) values ('list_signup', v_list.user_id, v_client);
  return jsonb_build_object(
    'status', 'ok',
    'list_id', v_list.id,
    'captcha_provider', v_list.captcha_provider,
    'captcha_secret', (select c.secret from private.list_captcha_secrets c where c.list_id = p_list_id));
end;
$function$;
comment on function public.list_signup_attempt(p_list_id uuid, p_origin text, p_client text, p_caps jsonb) is
  'The first step of a signup to an owner''s list (null: the site''s list, from its footer): the list exists, the page is its site, and the client is within its allowance (counted whatever follows); answers the list and its CAPTCHA provider and secret for the check before list_subscribe().';
revoke all on function public.list_signup_attempt(p_list_id uuid, p_origin text, p_client text, p_caps jsonb) from public, anon, authenticated, service_role;
grant execute on function public.list_signup_attempt(p_list_id uuid, p_origin text, p_client text, p_caps jsonb) to service_role;

create or replace function public.list_subscribe(p_list_id uuid, p_email text, p_name text, p_confirm_token text, p_link_prefix text, p_caps jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_email text := lower(btrim(coalesce(p_email, '')));
  v_name text := nullif(btrim(regexp_replace(coalesce(p_name, ''), '[\x01-\x1f\x7f-\x9f]+', ' ', 'g')), '');
  v_per_recipient integer := coalesce((p_caps ->> 'per_recipient_day')::integer, 3);
  v_per_account integer := coalesce((p_caps ->> 'per_account_day')::integer, 500);
  v_cooldown interval := make_interval(secs => coalesce((p_caps ->> 'cooldown_seconds')::integer, 6 * 3600));
  v_list public.newsletter_lists;
  v_subscriber public.list_subscribers;
  v_target text;
  v_link text;
  v_text text;
  v_label text;
begin
  if not public.autoresponse_address_ok(v_email) then
    return jsonb_build_object('status', 'invalid', 'field', 'email', 'message', 'Enter a valid e-mail address.');
  end if;
  if char_length(coalesce(v_name, '')) > 100 then
    return jsonb_build_object('status', 'invalid', 'field', 'name', 'message', 'Keep the name under 100 characters.');
  end if;
  if p_confirm_token is null or p_confirm_token !~ '^[A-Za-z0-9_-]{43}$'
     or p_link_prefix is null or p_link_prefix !~ '^https?://[^\s"<>]+$' then
    raise exception 'list_subscribe needs a token and the confirmation link''s prefix' using errcode = '22023';
  end if;
  -- The caller went through list_signup_attempt() first (origin, client allowance, CAPTCHA).
  select l.* into v_list from public.newsletter_lists l where l.id = p_list_id;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;

  -- One decision at a time per address and list.
  perform pg_advisory_xact_lock(hashtextextended('tinyback.list-address:' || p_list_id::text || ':' || v_email, 0));
  select s.* into v_subscriber from public.list_subscribers s
   where s.list_id = p_list_id and lower(s.email) = v_email for update;
  if found and v_subscriber.status = 'confirmed' then
    return jsonb_build_object('status', 'ok');
  end if;
  if not found then
    insert into public.list_subscribers (list_id, user_id, email, name, status, source)
      values (p_list_id, v_list.user_id, v_email, v_name, 'pending', 'form')
      returning * into v_subscriber;
  elsif v_subscriber.status <> 'pending' then
    update public.list_subscribers s
       set status = 'pending', name = coalesce(v_name, s.name), unsubscribed_at = null, bounced_at = null
     where s.id = v_subscriber.id;
  elsif exists (select 1 from private.list_subscriber_tokens t
                 where t.subscriber_id = v_subscriber.id and t.purpose = 'confirm'
                   and t.created_at > now() - v_cooldown) then
    -- A confirmation went out a short while ago: no second one yet.
    return jsonb_build_object('status', 'ok');
  end if;

  -- At most v_per_recipient confirmation mails a day to one address, from every list together.
  v_target := private.address_key(v_email);
  perform pg_advisory_xact_lock(hashtextextended('tinyback.list-confirmation-to:' || v_target, 0));
  if private.ledger_count_target('list_confirmation', now() - interval '1 day', v_per_recipient, v_target) >= v_per_recipient then
    return jsonb_build_object('status', 'ok');
  end if;
  -- ...and at most v_per_account a day from one owner's lists together: the confirmation carries
  -- the owner's words, so many visitors' addresses must not make it a way to mail strangers.
  perform pg_advisory_xact_lock(hashtextextended('tinyback.list-confirmations-of:' || v_list.user_id::text, 0));
  if private.ledger_count('list_confirmation', now() - interval '1 day', v_per_account, v_list.user_id) >= v_per_account then
    return jsonb_build_object('status', 'ok');
  end if;
  insert into private.action_ledger (kind, user_id, target) values ('list_confirmation', v_list.user_id, v_target);

  delete from private.list_subscriber_tokens t
   where t.subscriber_id = v_subscriber.id and t.purpose = 'confirm';
  insert into private.list_subscriber_tokens (token_hash, subscriber_id, expires_at)
    values (encode(sha256(convert_to(p_confirm_token, 'UTF8')), 'hex'), v_subscriber.id, now() + interval '7 days');
  v_link := p_link_prefix || p_confirm_token;
  v_label := left(btrim(regexp_replace(v_list.name, '[\x01-\x1f\x7f-\x9f\u2028\u2029]+', ' ', 'g')), 100);
  v_text := case when btrim(v_list.confirm_message) <> '' then btrim(v_list.confirm_message) || E'\n\n' else '' end
    || 'Please confirm that you want to receive "' || v_label || '":' || E'\n' || v_link || E'\n\n'
    || 'If you did not ask for this, ignore this message: you will not hear from this list.'
    || E'\n\n--\nYou receive this because this address was entered in the signup form of "' || v_label
    || '" on ' || v_list.allowed_origin || '.';
  insert into public.email_deliveries
      (kind, user_id, recipient, subject, reply_to, text_body, html_body, from_name)
    values ('list_confirmation', v_list.user_id, v_email,
            'Confirm your subscription to ' || left(v_label, 150), v_list.reply_to, v_text,
            '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5"><div>'
              || replace(public.confirmation_mail_escape(v_text), E'\n', '<br>') || '</div></body></html>',
            coalesce(v_list.from_name, private.autoresponse_from_name(v_list.name)));
  return jsonb_build_object('status', 'ok');
end;
$function$;
comment on function public.list_subscribe(p_list_id uuid, p_email text, p_name text, p_confirm_token text, p_link_prefix text, p_caps jsonb) is
  'A signup to an owner''s list from its form, after list_signup_attempt(): the double opt-in mail (the owner''s words) at most once per cooldown and a few times a day per address and per account; the same answer for every valid address.';
revoke all on function public.list_subscribe(p_list_id uuid, p_email text, p_name text, p_confirm_token text, p_link_prefix text, p_caps jsonb) from public, anon, authenticated, service_role;
grant execute on function public.list_subscribe(p_list_id uuid, p_email text, p_name text, p_confirm_token text, p_link_prefix text, p_caps jsonb) to service_role;

create or replace function public.list_confirm(p_token text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_subscriber_id uuid;
  v_list_name text;
begin
  delete from private.list_subscriber_tokens t
   where t.token_hash = encode(sha256(convert_to(coalesce(p_token, ''), 'UTF8')), 'hex')
     and t.purpose = 'confirm' and t.expires_at > now()
  returning t.subscriber_id into v_subscriber_id;
  if v_subscriber_id is null then
    return jsonb_build_object('status', 'invalid');
  end if;
  update public.list_subscribers s
     set status = 'confirmed', consent_at = now(), confirmed_at = now()
   where s.id = v_subscriber_id and s.status = 'pending';
  select l.name into v_list_name from public.list_subscribers s
    join public.newsletter_lists l on l.id = s.list_id where s.id = v_subscriber_id;
  return jsonb_build_object('status', 'confirmed', 'list_name', v_list_name);
end;
$function$;
comment on function public.list_confirm(p_token text) is
  'Spends a confirmation link''s token (7 days, once): the subscriber is confirmed, with the time as their consent.';
revoke all on function public.list_confirm(p_token text) from public, anon, authenticated, service_role;
grant execute on function public.list_confirm(p_token text) to service_role;

create or replace function public.list_unsubscribe(p_subscriber_id uuid, p_campaign_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_subscriber public.list_subscribers;
  v_list_name text;
begin
  select s.* into v_subscriber from public.list_subscribers s where s.id = p_subscriber_id for update;
  if not found then
    return jsonb_build_object('status', 'invalid');
  end if;
  select l.name into v_list_name from public.newsletter_lists l where l.id = v_subscriber.list_id;
  if v_subscriber.status in ('pending', 'confirmed') then
    update public.list_subscribers s set status = 'unsubscribed', unsubscribed_at = now()
     where s.id = p_subscriber_id;
    -- Counted on the campaign whose mail carried the link (once per subscriber).
    update public.campaigns c set unsubscribed = c.unsubscribed + 1
     where c.id = p_campaign_id and c.list_id = v_subscriber.list_id;
  end if;
  return jsonb_build_object('status', 'unsubscribed', 'list_name', v_list_name);
end;
$function$;
comment on function public.list_unsubscribe(p_subscriber_id uuid, p_campaign_id uuid) is
  'Unsubscribes a list''s subscriber (the newsletter function checks the signed link first); counted on the campaign it came from.';
revoke all on function public.list_unsubscribe(p_subscriber_id uuid, p_campaign_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.list_unsubscribe(p_subscriber_id uuid, p_campaign_id uuid) to service_role;

create or replace function public.set_list_captcha(p_list_id uuid, p_provider text, p_site_key text, p_secret text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_current text;
  v_site_key text := btrim(coalesce(p_site_key, ''));
  -- The secret to store (null: keep the stored one).
  v_secret text;
begin
  if (select auth.uid()) is null then
    raise exception 'Sign in to change a list''s CAPTCHA.' using errcode = '42501';
  end if;
  select l.captcha_provider into v_current from public.newsletter_lists l
   where l.id = p_list_id and l.user_id = (select auth.uid())
     for update;
  if not found then
    raise exception 'This list no longer exists.' using errcode = 'PT404';
  end if;
  if p_provider is null then
    update public.newsletter_lists l set captcha_provider = null, captcha_site_key = null
     where l.id = p_list_id;
    delete from private.list_captcha_secrets c where c.list_id = p_list_id;
    return jsonb_build_object('captcha_provider', null, 'captcha_site_key', null);
  end if;
  v_secret := private.captcha_keys(p_provider, v_site_key, p_secret, v_current,
    exists (select 1 from private.list_captcha_secrets s where s.list_id = p_list_id));
  if v_secret is not null then
    insert into private.list_captcha_secrets (list_id, secret) values (p_list_id, v_secret)
      on conflict (list_id) do update set secret = excluded.secret, updated_at = now();
  end if;
  update public.newsletter_lists l set captcha_provider = p_provider, captcha_site_key = v_site_key
   where l.id = p_list_id;
  return jsonb_build_object('captcha_provider', p_provider, 'captcha_site_key', v_site_key);
end;
$function$;
comment on function public.set_list_captcha(p_list_id uuid, p_provider text, p_site_key text, p_secret text) is
  'The owner turns a list''s signup CAPTCHA on (provider, public site key, secret key kept in private) or off; an empty secret keeps the stored one for the same provider.';
revoke all on function public.set_list_captcha(p_list_id uuid, p_provider text, p_site_key text, p_secret text) from public, anon, authenticated, service_role;
grant execute on function public.set_list_captcha(p_list_id uuid, p_provider text, p_site_key text, p_secret text) to authenticated;

create or replace function public.campaign_send_test(p_user_id uuid, p_campaign_id uuid, p_subject text, p_text text, p_html text, p_caps jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_per_hour integer := coalesce((p_caps ->> 'per_account_hour')::integer, 10);
  v_per_day integer := coalesce((p_caps ->> 'per_account_day')::integer, 30);
  v_campaign public.campaigns;
  v_list public.newsletter_lists;
  v_recipient text;
begin
  select c.* into v_campaign from public.campaigns c where c.id = p_campaign_id and c.user_id = p_user_id;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;
  if char_length(coalesce(p_subject, '')) > 220 or octet_length(coalesce(p_text, '')) > 200 * 1024
     or octet_length(coalesce(p_html, '')) > 600 * 1024 then
    raise exception 'campaign_send_test: the rendered test is too large' using errcode = '22023';
  end if;
  -- A test goes to the account's own sign-in address only, never to one the caller names.
  select u.email into v_recipient from auth.users u where u.id = p_user_id;
  if v_recipient is null or not public.autoresponse_address_ok(lower(v_recipient)) then
    return jsonb_build_object('status', 'no_address');
  end if;
  perform pg_advisory_xact_lock(hashtextextended('tinyback.campaign-test:' || p_user_id::text, 0));
  if private.ledger_count('campaign_test', now() - interval '1 hour', v_per_hour, p_user_id) >= v_per_hour then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', 3600);
  end if;
  if private.ledger_count('campaign_test', now() - interval '1 day', v_per_day, p_user_id) >= v_per_day then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', 86400);
  end if;
  insert into private.action_ledger (kind, user_id) values ('campaign_test', p_user_id);
  select l.* into v_list from public.newsletter_lists l where l.id = v_campaign.list_id;
  insert into public.email_deliveries
      (kind, user_id, recipient, subject, reply_to, text_body, html_body, from_name)
    values ('campaign_test', p_user_id, lower(v_recipient), p_subject,
            coalesce(v_campaign.reply_to, v_list.reply_to), p_text, p_html,
            coalesce(v_campaign.from_name, v_list.from_name, private.autoresponse_from_name(v_list.name)));
  return jsonb_build_object('status', 'ok', 'recipient', lower(v_recipient));
end;
$function$;
comment on function public.campaign_send_test(p_user_id uuid, p_campaign_id uuid, p_subject text, p_text text, p_html text, p_caps jsonb) is
  'Queues a test of an owner''s campaign (rendered by the newsletter function as the sender renders it) to the owner''s own sign-in address, within a few an hour and a day per account.';
revoke all on function public.campaign_send_test(p_user_id uuid, p_campaign_id uuid, p_subject text, p_text text, p_html text, p_caps jsonb) from public, anon, authenticated, service_role;
grant execute on function public.campaign_send_test(p_user_id uuid, p_campaign_id uuid, p_subject text, p_text text, p_html text, p_caps jsonb) to service_role;

create or replace function public.list_unsubscribe_token(p_token text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_subscriber_id uuid;
  v_list_name text;
begin
  select t.subscriber_id into v_subscriber_id from private.list_subscriber_tokens t
   where t.token_hash = encode(sha256(convert_to(coalesce(p_token, ''), 'UTF8')), 'hex')
     and t.purpose = 'unsubscribe';
  if v_subscriber_id is null then
    return jsonb_build_object('status', 'invalid');
  end if;
  update public.list_subscribers s set status = 'unsubscribed', unsubscribed_at = now()
   where s.id = v_subscriber_id and s.status in ('pending', 'confirmed');
  -- A confirmation link still out there no longer subscribes them.
  delete from private.list_subscriber_tokens t
   where t.subscriber_id = v_subscriber_id and t.purpose = 'confirm';
  select l.name into v_list_name from public.list_subscribers s
    join public.newsletter_lists l on l.id = s.list_id where s.id = v_subscriber_id;
  return jsonb_build_object('status', 'unsubscribed', 'list_name', v_list_name);
end;
$function$;
comment on function public.list_unsubscribe_token(p_token text) is
  'Spends an unsubscribe link of earlier footer mail (it works again, as it always did): the subscriber is unsubscribed.';
revoke all on function public.list_unsubscribe_token(p_token text) from public, anon, authenticated, service_role;
grant execute on function public.list_unsubscribe_token(p_token text) to service_role;

create or replace function public.set_site_list(p_list_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_owner uuid;
  v_moved integer;
begin
  select l.user_id into v_owner from public.newsletter_lists l where l.id = p_list_id for update;
  if not found then
    raise exception 'No list has the id %.', p_list_id using errcode = 'PT404';
  end if;
  update public.newsletter_lists l set site_list = false where l.site_list and l.id <> p_list_id;
  update public.newsletter_lists l set site_list = true where l.id = p_list_id;

  -- Footer sign-ups from before: into the list, with their consent times and their links.
  with moved as (
    insert into public.list_subscribers
        (id, list_id, user_id, email, status, source, consent_at, created_at, confirmed_at, unsubscribed_at)
      select s.id, p_list_id, v_owner, lower(s.email), s.status, 'form',
             case when s.status = 'confirmed' then s.confirmed_at end,
             s.created_at, s.confirmed_at, s.unsubscribed_at
        from private.newsletter_subscribers s
       where char_length(s.email) <= 254
         and not exists (select 1 from public.list_subscribers x where x.id = s.id)
      on conflict do nothing
      returning id
  ), tokens as (
    insert into private.list_subscriber_tokens (token_hash, subscriber_id, purpose, created_at, expires_at)
      select t.token_hash, t.subscriber_id, t.purpose, t.created_at, t.expires_at
        from private.newsletter_tokens t join moved m on m.id = t.subscriber_id
       where t.expires_at is null or t.expires_at > now()
      on conflict do nothing
      returning 1
  )
  select count(*)::integer into v_moved from moved;
  -- Moved, or already on the list: the old rows are done with.
  delete from private.newsletter_subscribers s
   where exists (select 1 from public.list_subscribers x
                  where x.list_id = p_list_id and lower(x.email) = lower(s.email));
  return jsonb_build_object('site_list', p_list_id, 'moved', v_moved);
end;
$function$;
comment on function public.set_site_list(p_list_id uuid) is
  'Makes one list the site''s own (its footer signup goes there) and moves the footer sign-ups from before into it. For the database owner: select public.set_site_list(''<list id>'').';
revoke all on function public.set_site_list(p_list_id uuid) from public, anon, authenticated, service_role;

create or replace function private.newsletter_lists_sweep(p_limit integer)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_tokens integer;
  v_pending integer;
begin
  delete from private.list_subscriber_tokens t
   where t.token_hash in (select x.token_hash from private.list_subscriber_tokens x
                           where x.expires_at < now() limit greatest(p_limit, 0));
  get diagnostics v_tokens = row_count;
  -- Signups never confirmed are forgotten after 30 days.
  delete from public.list_subscribers s
   where s.id in (select x.id from public.list_subscribers x
                   where x.status = 'pending' and x.created_at < now() - interval '30 days'
                   limit greatest(p_limit, 0));
  get diagnostics v_pending = row_count;
  -- ...and so are footer sign-ups from before the site's list that were never confirmed.
  delete from private.newsletter_subscribers s
   where s.id in (select x.id from private.newsletter_subscribers x
                   where x.status = 'pending' and x.created_at < now() - interval '30 days'
                   limit greatest(p_limit, 0));
  -- Copies of confirmation and test mail (they name the address) go after 30 days.
  delete from public.email_deliveries d
   where d.kind in ('list_confirmation', 'campaign_test', 'newsletter_confirmation')
     and d.status in ('sent', 'failed')
     and d.created_at < now() - interval '30 days';
  return jsonb_build_object('tokens', v_tokens, 'pending', v_pending);
end;
$function$;
revoke all on function private.newsletter_lists_sweep(p_limit integer) from public, anon, authenticated, service_role;

create trigger newsletter_lists_prepare BEFORE INSERT OR UPDATE ON public.newsletter_lists FOR EACH ROW EXECUTE FUNCTION private.newsletter_lists_prepare();
create trigger campaigns_prepare BEFORE INSERT OR UPDATE ON public.campaigns FOR EACH ROW EXECUTE FUNCTION private.campaigns_prepare();

alter table public.newsletter_lists enable row level security;
create policy "Lists are viewable by their owner" on public.newsletter_lists
  for select to authenticated using ((( SELECT auth.uid() AS uid) = user_id));
create policy "Lists can be created by users for themselves" on public.newsletter_lists
  for insert to authenticated with check ((( SELECT auth.uid() AS uid) = user_id));
create policy "Lists are updatable by their owner" on public.newsletter_lists
  for update to authenticated using ((( SELECT auth.uid() AS uid) = user_id)) with check ((( SELECT auth.uid() AS uid) = user_id));
create policy "Lists are deletable by their owner" on public.newsletter_lists
  for delete to authenticated using ((( SELECT auth.uid() AS uid) = user_id));

alter table public.list_subscribers enable row level security;
create policy "Subscribers are viewable by the list's owner" on public.list_subscribers
  for select to authenticated using ((( SELECT auth.uid() AS uid) = user_id));
create policy "Subscribers are deletable by the list's owner" on public.list_subscribers
  for delete to authenticated using ((( SELECT auth.uid() AS uid) = user_id));

alter table public.campaigns enable row level security;
create policy "Campaigns are viewable by their owner" on public.campaigns
  for select to authenticated using ((( SELECT auth.uid() AS uid) = user_id));
create policy "Campaigns can be created by users for themselves" on public.campaigns
  for insert to authenticated with check ((( SELECT auth.uid() AS uid) = user_id));
create policy "Campaigns are updatable by their owner" on public.campaigns
  for update to authenticated using ((( SELECT auth.uid() AS uid) = user_id)) with check ((( SELECT auth.uid() AS uid) = user_id));
create policy "Draft campaigns are deletable by their owner" on public.campaigns
  for delete to authenticated using ((( SELECT auth.uid() AS uid) = user_id) and status = 'draft');

alter table private.campaign_messages enable row level security;
alter table private.list_subscriber_tokens enable row level security;
alter table private.list_captcha_secrets enable row level security;

revoke all on table public.newsletter_lists from public, anon, authenticated, service_role;
grant select, delete on table public.newsletter_lists to authenticated;
grant insert (user_id, name, from_name, reply_to, allowed_origin, confirm_message) on table public.newsletter_lists to authenticated;
grant update (name, from_name, reply_to, allowed_origin, confirm_message) on table public.newsletter_lists to authenticated;
grant all on table public.newsletter_lists to service_role;
revoke all on table public.list_subscribers from public, anon, authenticated, service_role;
grant select, delete on table public.list_subscribers to authenticated;
grant all on table public.list_subscribers to service_role;
revoke all on table public.campaigns from public, anon, authenticated, service_role;
grant select, delete on table public.campaigns to authenticated;
grant insert (user_id, list_id, subject, body_markdown, from_name, reply_to) on table public.campaigns to authenticated;
grant update (list_id, subject, body_markdown, from_name, reply_to) on table public.campaigns to authenticated;
grant all on table public.campaigns to service_role;
revoke all on table private.campaign_messages from public, anon, authenticated, service_role;
revoke all on table private.list_subscriber_tokens from public, anon, authenticated, service_role;
revoke all on table private.list_captcha_secrets from public, anon, authenticated, service_role;

alter publication supabase_realtime add table public.list_subscribers;
alter publication supabase_realtime add table public.campaigns;

-- ------------------------------------------------------------------------------------------------
-- Owners' campaigns: sending
--
-- The outbox's campaign run (supabase/functions/_shared/outbox/campaigns.ts) sends a campaign's
-- messages in three steps, each its own transaction:
--   campaign_claim  leases queued messages of sending campaigns (due scheduled ones start first),
--                   fairly across accounts and within each account's per-call and daily ceilings;
--   campaign_begin  marks a few of them 'sending' right before their SMTP transactions;
--   campaign_finish records each one's answer under its own lease.
-- Exactly once: a message is only ever sent after campaign_begin made it 'sending', and a 'sending'
-- message is never handed out again. When its lease runs out unfinished (a killed sender, a lost
-- connection), nobody knows whether the server took it, so it is recorded as failed, not sent a
-- second time. Messages leased but not begun simply become claimable again when their lease ends.
-- ------------------------------------------------------------------------------------------------
create index campaign_messages_sending_idx ON private.campaign_messages (locked_until) WHERE (status = 'sending'::text);

create table private.campaign_account_days (
  user_id uuid not null,
  day date not null,
  messages integer default 0 not null,
  last_claim_at timestamp with time zone,
  constraint campaign_account_days_pkey PRIMARY KEY (user_id, day),
  constraint campaign_account_days_messages CHECK (messages >= 0)
);
alter table private.campaign_account_days enable row level security;
revoke all on table private.campaign_account_days from public, anon, authenticated, service_role;
comment on table private.campaign_account_days is
  'Campaign messages claimed per account and UTC day (the daily ceilings) and when the account was last served (round robin); references nothing, so deleting campaigns or lists resets nothing; purged by age only.';

create or replace function private.campaign_promote_due(p_limit integer)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_campaign public.campaigns;
  v_recipients integer;
  v_promoted integer := 0;
begin
  for v_campaign in
    select c.* from public.campaigns c
     where c.status = 'scheduled' and c.scheduled_at <= now()
     order by c.scheduled_at
     limit greatest(p_limit, 0)
       for update skip locked
  loop
    -- The recipients as campaign_start fixes them: the list's confirmed subscribers now.
    insert into private.campaign_messages (campaign_id, subscriber_id)
      select v_campaign.id, s.id from public.list_subscribers s
       where s.list_id = v_campaign.list_id and s.status = 'confirmed'
      on conflict do nothing;
    select count(*)::integer into v_recipients from private.campaign_messages m where m.campaign_id = v_campaign.id;
    update public.campaigns c
       set status = 'sending', scheduled_at = null, started_at = now(), recipients = v_recipients
     where c.id = v_campaign.id;
    v_promoted := v_promoted + 1;
  end loop;
  return v_promoted;
end;
$function$;
revoke all on function private.campaign_promote_due(p_limit integer) from public, anon, authenticated, service_role;

create or replace function private.campaign_complete(p_campaign_ids uuid[])
 RETURNS void
 LANGUAGE sql
 SET search_path TO ''
AS $function$
  update public.campaigns c set status = 'sent', finished_at = now()
   where c.id = any (p_campaign_ids) and c.status = 'sending'
     and not exists (select 1 from private.campaign_messages m
                      where m.campaign_id = c.id and m.status = any (array['queued'::text, 'sending'::text]));
$function$;
revoke all on function private.campaign_complete(p_campaign_ids uuid[]) from public, anon, authenticated, service_role;

create or replace function public.campaign_claim(p_limit integer, p_lease_seconds integer, p_per_account_per_second integer, p_per_account_per_day integer DEFAULT 50000, p_new_account_per_day integer DEFAULT 500, p_account_interval_ms integer DEFAULT 1000)
 RETURNS TABLE(campaign_id uuid, subscriber_id uuid, lease uuid, attempts integer, user_id uuid, list_id uuid, recipient text, recipient_name text, subject text, body_markdown text, list_name text, from_name text, reply_to text)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
#variable_conflict use_column
declare
  v_today date := (now() at time zone 'UTC')::date;
  v_lease uuid := gen_random_uuid();
  v_until timestamp with time zone := now() + make_interval(secs => greatest(p_lease_seconds, 1));
  v_accounts uuid[];
  v_fair integer;
  v_total integer := 0;
  v_account uuid;
  v_created timestamp with time zone;
  v_used integer;
  v_last timestamp with time zone;
  v_cap integer;
  v_take integer;
  v_campaign uuid;
  v_got integer;
  v_account_got integer;
begin
  perform private.campaign_promote_due(20);

  -- Sends whose lease ran out unfinished: the server may have taken them, so they are never sent
  -- again; they count as failed with the reason.
  with expired as (
    update private.campaign_messages m
       set status = 'failed', lease = null, locked_until = null,
           last_error = 'Interrupted while sending: it may have been delivered, so it is not sent again.'
     where (m.campaign_id, m.subscriber_id) in (
             select x.campaign_id, x.subscriber_id from private.campaign_messages x
              where x.status = 'sending' and x.locked_until < now()
              limit 1000 for update skip locked)
    returning m.campaign_id
  )
  update public.campaigns c set failed = c.failed + e.n
    from (select e.campaign_id, count(*)::integer as n from expired e group by e.campaign_id) e
   where c.id = e.campaign_id;

  -- Campaigns with nothing left to send (none left after the expiry above, or none to begin with).
  perform private.campaign_complete(array(select c.id from public.campaigns c where c.status = 'sending'));
  delete from private.campaign_account_days d where d.day < v_today - 7;

  -- Round robin: the accounts served least recently first, each at most its fair share of the call.
  select array_agg(a.user_id order by d.last_claim_at nulls first, a.user_id) into v_accounts
    from (select distinct c.user_id from public.campaigns c where c.status = 'sending') a
    left join private.campaign_account_days d on d.user_id = a.user_id and d.day = v_today;
  if v_accounts is null or p_limit <= 0 then
    return;
  end if;
  v_fair := greatest(1, ceil(p_limit::numeric / cardinality(v_accounts))::integer);

  foreach v_account in array v_accounts loop
    exit when v_total >= p_limit;
    -- One claim at a time per account, so its daily ceiling holds between racing senders.
    perform pg_advisory_xact_lock(hashtextextended('tinyback.campaign-account:' || v_account::text, 0));
    select u.created_at into v_created from auth.users u where u.id = v_account;
    select coalesce(max(d.messages), 0), max(d.last_claim_at) into v_used, v_last
      from private.campaign_account_days d
     where d.user_id = v_account and d.day = v_today;
    -- At most one share per account per interval, whichever sender asks: the rate per account
    -- holds across every instance sending.
    continue when v_last > now() - make_interval(secs => greatest(p_account_interval_ms, 0) / 1000.0);
    -- A new account cannot mail a hundred thousand strangers on its first day.
    v_cap := case when v_created is null or v_created > now() - interval '7 days'
                  then least(p_new_account_per_day, p_per_account_per_day) else p_per_account_per_day end;
    v_take := least(p_per_account_per_second, v_cap - v_used, p_limit - v_total, v_fair);
    continue when v_take <= 0;
    v_account_got := 0;
    for v_campaign in
      select c.id from public.campaigns c
       where c.user_id = v_account and c.status = 'sending' order by c.started_at, c.id
    loop
      exit when v_account_got >= v_take;
      return query
        with picked as (
          select m.campaign_id, m.subscriber_id from private.campaign_messages m
           where m.campaign_id = v_campaign and m.status = 'queued'
             and (m.locked_until is null or m.locked_until < now())
           limit v_take - v_account_got
             for update skip locked
        ),
        -- Only confirmed subscribers are mailed: whoever left or bounced since the start is skipped.
        gone as (
          update private.campaign_messages m
             set status = 'skipped', lease = null, locked_until = null, last_error = 'No longer subscribed.'
            from picked p, public.list_subscribers s
           where m.campaign_id = p.campaign_id and m.subscriber_id = p.subscriber_id
             and s.id = p.subscriber_id and s.status <> 'confirmed'
          returning m.subscriber_id
        ),
        leased as (
          update private.campaign_messages m set lease = v_lease, locked_until = v_until
            from picked p, public.list_subscribers s
           where m.campaign_id = p.campaign_id and m.subscriber_id = p.subscriber_id
             and s.id = p.subscriber_id and s.status = 'confirmed'
          returning m.campaign_id, m.subscriber_id, m.attempts, s.email, s.name
        )
        select x.campaign_id, x.subscriber_id, v_lease, x.attempts, c.user_id, c.list_id, x.email, x.name,
               c.subject, c.body_markdown, l.name,
               coalesce(c.from_name, l.from_name), coalesce(c.reply_to, l.reply_to)
          from leased x
          join public.campaigns c on c.id = x.campaign_id
          join public.newsletter_lists l on l.id = c.list_id;
      get diagnostics v_got = row_count;
      v_account_got := v_account_got + v_got;
      if v_got = 0 then
        -- Nothing claimable here now: finished unless some are leased or waiting to be retried.
        perform private.campaign_complete(array[v_campaign]);
      end if;
    end loop;
    insert into private.campaign_account_days as d (user_id, day, messages, last_claim_at)
      values (v_account, v_today, v_account_got, now())
      on conflict on constraint campaign_account_days_pkey
      do update set messages = d.messages + excluded.messages, last_claim_at = now();
    v_total := v_total + v_account_got;
  end loop;
end;
$function$;
comment on function public.campaign_claim(p_limit integer, p_lease_seconds integer, p_per_account_per_second integer, p_per_account_per_day integer, p_new_account_per_day integer, p_account_interval_ms integer) is
  'Starts due scheduled campaigns, then leases up to p_limit queued messages of sending campaigns to confirmed subscribers, round robin across accounts, at most p_per_account_per_second per account per p_account_interval_ms (whichever sender asks) and within the daily ceilings (p_new_account_per_day for accounts younger than 7 days).';
revoke all on function public.campaign_claim(p_limit integer, p_lease_seconds integer, p_per_account_per_second integer, p_per_account_per_day integer, p_new_account_per_day integer, p_account_interval_ms integer) from public, anon, authenticated, service_role;
grant execute on function public.campaign_claim(p_limit integer, p_lease_seconds integer, p_per_account_per_second integer, p_per_account_per_day integer, p_new_account_per_day integer, p_account_interval_ms integer) to service_role;

create or replace function public.campaign_begin(p_lease uuid, p_messages jsonb)
 RETURNS TABLE(campaign_id uuid, subscriber_id uuid, attempts integer)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
#variable_conflict use_column
begin
  return query
    with wanted as (
      select distinct (x ->> 'campaign_id')::uuid as campaign_id, (x ->> 'subscriber_id')::uuid as subscriber_id
        from jsonb_array_elements(coalesce(p_messages, '[]'::jsonb)) x
    ),
    held as (
      select m.campaign_id, m.subscriber_id, c.user_id, c.status as campaign_status, s.status as subscriber_status
        from private.campaign_messages m
        join wanted w on w.campaign_id = m.campaign_id and w.subscriber_id = m.subscriber_id
        join public.campaigns c on c.id = m.campaign_id
        join public.list_subscribers s on s.id = m.subscriber_id
       -- By the primary key, whatever the planner guesses of the list's size.
       where m.campaign_id = any (array(select w2.campaign_id from wanted w2))
         and m.subscriber_id = any (array(select w2.subscriber_id from wanted w2))
         and m.lease = p_lease and m.status = 'queued' and m.locked_until > now()
       order by m.campaign_id, m.subscriber_id
         for update of m skip locked
    ),
    -- Left or bounced since the claim: skipped.
    gone as (
      update private.campaign_messages m
         set status = 'skipped', lease = null, locked_until = null, last_error = 'No longer subscribed.'
        from held h
       where m.campaign_id = h.campaign_id and m.subscriber_id = h.subscriber_id
         and h.subscriber_status <> 'confirmed'
      returning m.campaign_id
    ),
    -- Paused since the claim: back in the queue.
    released as (
      update private.campaign_messages m set lease = null, locked_until = null
        from held h
       where m.campaign_id = h.campaign_id and m.subscriber_id = h.subscriber_id
         and h.subscriber_status = 'confirmed' and h.campaign_status <> 'sending'
      returning m.campaign_id
    ),
    -- Neither counts against the account's day.
    given_back as (
      update private.campaign_account_days d set messages = greatest(0, d.messages - g.n)
        from (select h.user_id, count(*)::integer as n from held h
               where h.subscriber_status <> 'confirmed' or h.campaign_status <> 'sending'
               group by h.user_id) g
       where d.user_id = g.user_id and d.day = (now() at time zone 'UTC')::date
      returning d.user_id
    ),
    begun as (
      update private.campaign_messages m set status = 'sending', attempts = m.attempts + 1
        from held h
       where m.campaign_id = h.campaign_id and m.subscriber_id = h.subscriber_id
         and h.subscriber_status = 'confirmed' and h.campaign_status = 'sending'
      returning m.campaign_id, m.subscriber_id, m.attempts
    )
    select b.campaign_id, b.subscriber_id, b.attempts from begun b;
end;
$function$;
comment on function public.campaign_begin(p_lease uuid, p_messages jsonb) is
  'Marks leased messages [{campaign_id, subscriber_id}] ''sending'' right before their SMTP transactions and returns them; skips subscribers who left and releases messages of paused campaigns. A ''sending'' message is never claimed again.';
revoke all on function public.campaign_begin(p_lease uuid, p_messages jsonb) from public, anon, authenticated, service_role;
grant execute on function public.campaign_begin(p_lease uuid, p_messages jsonb) to service_role;

create or replace function public.campaign_finish(p_results jsonb)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_recorded integer;
  v_campaigns uuid[];
begin
  with given as (
    select distinct on ((x ->> 'campaign_id')::uuid, (x ->> 'subscriber_id')::uuid)
           (x ->> 'campaign_id')::uuid as campaign_id, (x ->> 'subscriber_id')::uuid as subscriber_id,
           (x ->> 'lease')::uuid as lease, x ->> 'outcome' as outcome, left(x ->> 'error', 1000) as error,
           (x ->> 'retry_in_seconds')::integer as retry_in_seconds
      from jsonb_array_elements(coalesce(p_results, '[]'::jsonb)) x
     where x ->> 'outcome' = any (array['sent', 'failed', 'bounced', 'retry', 'released'])
  ),
  -- Only under each message's own lease, and only from the state its outcome follows: 'released'
  -- (never begun) from 'queued', every other outcome from 'sending'.
  held as (
    select m.campaign_id, m.subscriber_id, g.outcome, g.error, g.retry_in_seconds, c.user_id
      from private.campaign_messages m
      join given g on g.campaign_id = m.campaign_id and g.subscriber_id = m.subscriber_id and g.lease = m.lease
      join public.campaigns c on c.id = m.campaign_id
     -- By the primary key, whatever the planner guesses of the list's size.
     where m.campaign_id = any (array(select g2.campaign_id from given g2))
       and m.subscriber_id = any (array(select g2.subscriber_id from given g2))
       and m.status = case when g.outcome = 'released' then 'queued' else 'sending' end
     order by m.campaign_id, m.subscriber_id
       for update of m skip locked
  ),
  recorded as (
    update private.campaign_messages m
       set status = case when h.outcome in ('retry', 'released') then 'queued' else h.outcome end,
           lease = null,
           locked_until = case when h.outcome = 'retry'
                               then now() + make_interval(secs => greatest(coalesce(h.retry_in_seconds, 60), 0))
                               end,
           sent_at = case when h.outcome = 'sent' then now() else m.sent_at end,
           last_error = case when h.outcome in ('sent', 'released') then m.last_error else h.error end
      from held h
     where m.campaign_id = h.campaign_id and m.subscriber_id = h.subscriber_id
    returning m.campaign_id
  ),
  counted as (
    update public.campaigns c
       set sent = c.sent + t.sent, failed = c.failed + t.failed, bounced = c.bounced + t.bounced
      from (select h.campaign_id,
                   count(*) filter (where h.outcome = 'sent')::integer as sent,
                   count(*) filter (where h.outcome = 'failed')::integer as failed,
                   count(*) filter (where h.outcome = 'bounced')::integer as bounced
              from held h group by h.campaign_id) t
     where c.id = t.campaign_id and t.sent + t.failed + t.bounced > 0
    returning c.id
  ),
  -- A permanent refusal (5xx) of the address: the subscriber is mailed no more.
  bounced as (
    update public.list_subscribers s set status = 'bounced', bounced_at = now()
      from held h
     where h.outcome = 'bounced' and s.id = h.subscriber_id and s.status = 'confirmed'
    returning s.id
  ),
  -- Messages that go back to the queue do not count against the account's day.
  given_back as (
    update private.campaign_account_days d set messages = greatest(0, d.messages - b.n)
      from (select h.user_id, count(*)::integer as n from held h
             where h.outcome in ('retry', 'released') group by h.user_id) b
     where d.user_id = b.user_id and d.day = (now() at time zone 'UTC')::date
    returning d.user_id
  )
  select count(*)::integer, array_agg(distinct r.campaign_id)
    into v_recorded, v_campaigns
    from recorded r;

  perform private.campaign_complete(coalesce(v_campaigns, array[]::uuid[]));
  return v_recorded;
end;
$function$;
comment on function public.campaign_finish(p_results jsonb) is
  'Records messages [{campaign_id, subscriber_id, lease, outcome sent|failed|bounced|retry|released, error, retry_in_seconds}] under their own lease, counts them on their campaigns, marks bounced subscribers, and marks a campaign sent when nothing is left.';
revoke all on function public.campaign_finish(p_results jsonb) from public, anon, authenticated, service_role;
grant execute on function public.campaign_finish(p_results jsonb) to service_role;
