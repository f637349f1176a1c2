-- Newsletter
--
-- Double opt-in sign-ups, hashed link tokens and per-client rate limits.
--
-- Part of the declarative schema (supabase/schemas/, loaded in file-name order, as
-- config.toml's [db.migrations] schema_paths says): the current definition of this capability.
-- Change it here, then `npm run db:diff` prints the migration to add to supabase/migrations/.

-- Function bodies may name objects of later files.
set check_function_bodies = off;

-- ------------------------------------------------------------------------------------------------
-- Tables
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
  'Newsletter sign-ups (double opt-in); written only through the newsletter Edge Function.';
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
  'SHA-256 (hex) of the tokens in newsletter e-mail links; the tokens themselves are not stored.';

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
  'Newsletter sign-up requests per client (salted IP hash) in its current minute and day; written only by request_newsletter_subscription().';

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------
create or replace function public.skip_existing_subscriber()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  new.email := btrim(new.email);
  new.created_at := now();
  perform pg_advisory_xact_lock(hashtextextended('newsletter:' || lower(new.email), 0));
  if exists (
    select 1 from private.newsletter_subscribers s where lower(s.email) = lower(new.email)
  ) then
    return null;
  end if;
  return new;
end;
$function$;
revoke all on function public.skip_existing_subscriber() from public, anon, authenticated, service_role;

create or replace function public.request_newsletter_subscription(p_email text, p_ip_hash text, p_confirm_token text, p_unsubscribe_token text, p_mail jsonb, p_per_minute integer, p_per_day integer, p_cooldown_seconds integer, p_confirm_ttl_seconds integer, p_forget_pending_seconds integer)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_email text := lower(btrim(p_email));
  v_retry_after integer := 0;
  v_subscriber private.newsletter_subscribers;
  v_delivery_id uuid;
begin
  v_retry_after := private.take_fixed_window(null, p_ip_hash, p_per_minute, p_per_day);
  if v_retry_after > 0 then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', v_retry_after);
  end if;

  -- Housekeeping, a bounded batch each, served by an index: counters of clients not seen for two
  -- days, expired confirm links, outbox copies of confirmation e-mails whose confirm link has
  -- expired, and requests their addresses' owners never confirmed. Rows another request holds
  -- are skipped, so two requests never wait on each other here.
  delete from private.newsletter_rate_limits
   where ip_hash in (
     select r.ip_hash from private.newsletter_rate_limits r
      where r.day_start < now() - interval '2 days'
      limit 100 for update skip locked);
  delete from private.newsletter_tokens
   where token_hash in (
     select t.token_hash from private.newsletter_tokens t
      where t.expires_at < now()
      limit 100 for update skip locked);
  delete from public.email_deliveries
   where id in (
     select d.id from public.email_deliveries d
      where d.kind = 'newsletter_confirmation'
        and d.created_at < now() - make_interval(secs => p_confirm_ttl_seconds)
        and d.status in ('sent', 'failed')
      limit 100 for update skip locked);
  delete from private.newsletter_subscribers
   where id in (
     select s.id from private.newsletter_subscribers s
      where s.status = 'pending'
        and s.last_confirmation_at < now() - make_interval(secs => p_forget_pending_seconds)
      limit 100 for update skip locked);

  -- The same lock as the insert trigger's: two requests for one address take turns, so the
  -- second sees the first's row (and its cooldown) instead of racing it.
  perform pg_advisory_xact_lock(hashtextextended('newsletter:' || v_email, 0));
  select * into v_subscriber
    from private.newsletter_subscribers s where lower(s.email) = v_email for update;
  if not found then
    insert into private.newsletter_subscribers (email) values (v_email)
      returning * into v_subscriber;
  end if;

  if v_subscriber.status <> 'confirmed'
     and (v_subscriber.last_confirmation_at is null
          or v_subscriber.last_confirmation_at
             <= now() - make_interval(secs => p_cooldown_seconds)) then
    update private.newsletter_subscribers
       set status = 'pending', last_confirmation_at = now()
     where id = v_subscriber.id;
    insert into private.newsletter_tokens (token_hash, subscriber_id, purpose, expires_at)
      values
        (public.newsletter_token_hash(p_confirm_token), v_subscriber.id, 'confirm',
         now() + make_interval(secs => p_confirm_ttl_seconds)),
        (public.newsletter_token_hash(p_unsubscribe_token), v_subscriber.id, 'unsubscribe', null);
    insert into public.email_deliveries (kind, recipient, subject, text_body, html_body)
      values (
        'newsletter_confirmation',
        v_subscriber.email,
        p_mail ->> 'subject',
        p_mail ->> 'text',
        p_mail ->> 'html'
      )
      returning id into v_delivery_id;
  end if;

  return jsonb_build_object('status', 'accepted', 'delivery_id', v_delivery_id);
end;
$function$;
revoke all on function public.request_newsletter_subscription(p_email text, p_ip_hash text, p_confirm_token text, p_unsubscribe_token text, p_mail jsonb, p_per_minute integer, p_per_day integer, p_cooldown_seconds integer, p_confirm_ttl_seconds integer, p_forget_pending_seconds integer) from public, anon, authenticated, service_role;
grant execute on function public.request_newsletter_subscription(p_email text, p_ip_hash text, p_confirm_token text, p_unsubscribe_token text, p_mail jsonb, p_per_minute integer, p_per_day integer, p_cooldown_seconds integer, p_confirm_ttl_seconds integer, p_forget_pending_seconds integer) to service_role;

create or replace function public.confirm_newsletter_subscription(p_token text)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_subscriber_id uuid;
  v_expires_at timestamptz;
begin
  delete from private.newsletter_tokens t
   where t.token_hash = public.newsletter_token_hash(p_token) and t.purpose = 'confirm'
   returning t.subscriber_id, t.expires_at into v_subscriber_id, v_expires_at;
  if v_subscriber_id is null or v_expires_at <= now() then
    return 'invalid';
  end if;

  update private.newsletter_subscribers
     set status = 'confirmed', confirmed_at = now()
   where id = v_subscriber_id and status = 'pending';
  delete from private.newsletter_tokens
   where subscriber_id = v_subscriber_id and purpose = 'confirm';
  return 'confirmed';
end;
$function$;
revoke all on function public.confirm_newsletter_subscription(p_token text) from public, anon, authenticated, service_role;
grant execute on function public.confirm_newsletter_subscription(p_token text) to service_role;

create or replace function public.unsubscribe_newsletter(p_token text)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_subscriber_id uuid;
begin
  select t.subscriber_id into v_subscriber_id
    from private.newsletter_tokens t
   where t.token_hash = public.newsletter_token_hash(p_token) and t.purpose = 'unsubscribe';
  if not found then
    return 'invalid';
  end if;

  update private.newsletter_subscribers
     set status = 'unsubscribed', unsubscribed_at = now()
   where id = v_subscriber_id and status <> 'unsubscribed';
  delete from private.newsletter_tokens
   where subscriber_id = v_subscriber_id and purpose = 'confirm';
  return 'unsubscribed';
end;
$function$;
revoke all on function public.unsubscribe_newsletter(p_token text) from public, anon, authenticated, service_role;
grant execute on function public.unsubscribe_newsletter(p_token text) to service_role;

create or replace function public.newsletter_token_hash(p_token text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE STRICT
 SET search_path TO ''
AS $function$
  select encode(pg_catalog.sha256(pg_catalog.convert_to(p_token, 'UTF8')), 'hex');
$function$;
revoke all on function public.newsletter_token_hash(p_token text) from public, anon, authenticated, service_role;
grant execute on function public.newsletter_token_hash(p_token text) to service_role;

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------
create trigger newsletter_subscribers_skip_existing BEFORE INSERT ON private.newsletter_subscribers FOR EACH ROW EXECUTE FUNCTION public.skip_existing_subscriber();

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
