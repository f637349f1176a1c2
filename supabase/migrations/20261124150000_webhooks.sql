-- Webhooks: per form, several target URLs, each receiving a signed JSON POST for every accepted
-- entry (spam only when the webhook says so). Deliveries are queued by an AFTER INSERT trigger on
-- `entries`, so they commit in the same transaction as the entry whoever inserts it; the forms
-- function's `_deliver` run sends them (the same scheduled run as the e-mails), retrying with
-- backoff for at least 24 hours, and records every attempt for the owner to see.
--
-- Targets: https only, never a private, loopback, link-local, multicast or metadata address. The
-- database refuses such URLs when a webhook is created or changed; the function checks again
-- after DNS resolution at every send (a name may later point somewhere private). Both checks are
-- lifted only for local development: here by `webhook_settings.allow_local` (service role only,
-- off by default), in the function by WEBHOOKS_ALLOW_LOCAL=on — both must say so.

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table public.webhook_settings (
  id boolean primary key default true check (id),
  -- Development only: accept http:// and private/loopback targets (see the header).
  allow_local boolean not null default false
);
insert into public.webhook_settings (id) values (true);

comment on table public.webhook_settings is
  'One row; allow_local lets webhooks target local addresses (local development only).';

create table public.webhooks (
  id uuid primary key default gen_random_uuid(),
  form_id uuid not null references public.forms (id) on delete cascade,
  -- The form's owner, copied from the form by a trigger (policies filter on it without a join).
  user_id uuid not null references auth.users (id) on delete cascade,
  url text not null,
  -- The body's shape: tinyback's own JSON, or a Slack / Discord incoming-webhook message.
  format text not null default 'json',
  -- Also send entries marked as spam.
  send_spam boolean not null default false,
  enabled boolean not null default true,
  -- The HMAC-SHA256 key of the signature header; drawn by the database, never chosen by a client.
  secret text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint webhooks_format check (format in ('json', 'slack', 'discord')),
  constraint webhooks_url_length check (char_length(url) <= 2000)
);

comment on table public.webhooks is 'Per-form webhook targets; deliveries in webhook_deliveries.';

create index webhooks_form_id_idx on public.webhooks (form_id);
create index webhooks_user_id_idx on public.webhooks (user_id);

create table public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  webhook_id uuid not null references public.webhooks (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  -- Null for a test event.
  entry_id uuid references public.entries (id) on delete cascade,
  event text not null,
  status text not null default 'pending',
  -- Attempts of the current round ("send again" starts a new round).
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  -- When the current round began: retries stop once it is older than the retry window.
  round_started_at timestamptz not null default now(),
  lease uuid,
  locked_until timestamptz,
  last_status_code integer,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint webhook_deliveries_event check (event in ('entry.created', 'test')),
  constraint webhook_deliveries_status check (status in ('pending', 'sending', 'sent', 'failed'))
);

comment on table public.webhook_deliveries is
  'Webhook outbox: one row per (webhook, event); sent by the forms function''s _deliver run.';

create index webhook_deliveries_due_idx on public.webhook_deliveries (next_attempt_at)
  where status in ('pending', 'sending');
create index webhook_deliveries_webhook_idx on public.webhook_deliveries (webhook_id, created_at desc);
create index webhook_deliveries_entry_idx on public.webhook_deliveries (entry_id);
create index webhook_deliveries_user_id_idx on public.webhook_deliveries (user_id);

create table public.webhook_attempts (
  id bigint generated always as identity primary key,
  delivery_id uuid not null references public.webhook_deliveries (id) on delete cascade,
  webhook_id uuid not null references public.webhooks (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  attempted_at timestamptz not null default now(),
  -- Null when no HTTP answer came (refused target, DNS, timeout, connection).
  status_code integer,
  ok boolean not null,
  error text,
  -- The start of the answer's body, capped by the function and again here.
  response_excerpt text,
  duration_ms integer,
  constraint webhook_attempts_error_length check (char_length(error) <= 500),
  constraint webhook_attempts_excerpt_length check (char_length(response_excerpt) <= 1000)
);

comment on table public.webhook_attempts is 'Every webhook attempt, for the owner''s delivery log.';

create index webhook_attempts_webhook_idx on public.webhook_attempts (webhook_id, attempted_at desc);
create index webhook_attempts_delivery_idx on public.webhook_attempts (delivery_id);
create index webhook_attempts_user_id_idx on public.webhook_attempts (user_id);

-- ------------------------------------------------------------------------------------------------
-- Target checks
-- ------------------------------------------------------------------------------------------------

-- Why a webhook URL is refused, or null when it is acceptable. The function re-checks the
-- resolved addresses at send time; this catches what can be seen in the URL itself.
create function public.webhook_url_problem(p_url text)
returns text
language plpgsql
stable
security definer set search_path = ''
as $$
declare
  v_allow_local boolean := coalesce(
    (select s.allow_local from public.webhook_settings s where s.id), false);
  v_m text[];
  v_host text;
  v_addr inet;
begin
  if p_url is null or char_length(p_url) > 2000 then
    return 'The URL must be at most 2000 characters.';
  end if;
  if p_url ~ '[\s<>"\\^`{|}]' or p_url ~ '[[:cntrl:]]' then
    return 'The URL contains characters that are not allowed.';
  end if;
  v_m := regexp_match(p_url, '^(https?)://([^/?#]*)([/?#].*)?$', 'i');
  if v_m is null then
    return 'Enter a full URL starting with https://.';
  end if;
  if v_m[2] like '%@%' then
    return 'The URL must not contain a user name or password.';
  end if;
  if lower(v_m[1]) <> 'https' and not v_allow_local then
    return 'Webhook URLs must start with https://.';
  end if;
  -- The host without the port (an IPv6 literal keeps its brackets until here).
  v_host := lower(v_m[2]);
  if v_host ~ '^\[' then
    v_host := substring(v_host from '^\[([0-9a-f:.]+)\](:[0-9]+)?$');
  else
    v_host := substring(v_host from '^([^:]+)(:[0-9]+)?$');
  end if;
  v_host := rtrim(v_host, '.');
  if v_host is null or v_host = '' then
    return 'The URL has no valid host.';
  end if;
  if v_allow_local then
    return null;
  end if;
  if v_host = 'localhost' or v_host ~ '\.(localhost|local|internal|localdomain|home\.arpa)$'
     or v_host !~ '\.' and v_host !~ ':' then
    return 'Webhooks cannot target local or internal host names.';
  end if;
  -- Numeric hosts in forms browsers and resolvers accept (2130706433, 0x7f.1, 017.0.0.1).
  if v_host ~ '^[0-9a-fx.]+$' and v_host ~ '^[0-9]' then
    begin
      v_addr := v_host::inet;
    exception when others then
      return 'Webhooks cannot target numeric addresses in this form.';
    end;
  elsif v_host ~ ':' then
    begin
      v_addr := v_host::inet;
    exception when others then
      return 'The URL has no valid host.';
    end;
  end if;
  if v_addr is not null and not public.webhook_address_is_public(v_addr) then
    return 'Webhooks cannot target private, loopback, link-local or metadata addresses.';
  end if;
  return null;
end;
$$;

-- Whether an address is ordinary public unicast (what a webhook may reach).
create function public.webhook_address_is_public(p_addr inet)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select not (
    p_addr <<= any (array[
      '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16',
      '172.16.0.0/12', '192.0.0.0/24', '192.0.2.0/24', '192.88.99.0/24', '192.168.0.0/16',
      '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4',
      '::/128', '::1/128', '::ffff:0:0/96', '64:ff9b::/96', '64:ff9b:1::/48', '100::/64',
      '2001::/32', '2001:db8::/32', '2002::/16', 'fc00::/7', 'fe80::/10', 'fec0::/10', 'ff00::/8'
    ]::inet[])
  );
$$;

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------

-- The owner comes from the form, the secret from the database, the URL is checked; on update the
-- form, owner and secret cannot change.
create function public.prepare_webhook()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
declare
  v_owner uuid;
  v_problem text;
begin
  if tg_op = 'INSERT' then
    select f.user_id into v_owner from public.forms f where f.id = new.form_id;
    if v_owner is null then
      raise exception 'form % does not exist', new.form_id using errcode = 'foreign_key_violation';
    end if;
    new.user_id := v_owner;
    new.secret := 'whsec_' || encode(extensions.gen_random_bytes(32), 'hex');
    new.created_at := now();
  else
    new.form_id := old.form_id;
    new.user_id := old.user_id;
    new.secret := old.secret;
    new.created_at := old.created_at;
  end if;
  new.url := btrim(new.url);
  if tg_op = 'INSERT' or new.url is distinct from old.url then
    v_problem := public.webhook_url_problem(new.url);
    if v_problem is not null then
      raise exception '%', v_problem using errcode = 'check_violation',
        hint = 'webhook_url_refused';
    end if;
  end if;
  new.updated_at := now();
  return new;
end;
$$;

create trigger webhooks_prepare
  before insert or update on public.webhooks
  for each row execute function public.prepare_webhook();

-- At most a few webhooks per form: each entry fans out to every one of them.
create function public.limit_webhooks_per_form()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
begin
  perform 1 from public.forms f where f.id = new.form_id for update;
  if (select count(*) from public.webhooks w where w.form_id = new.form_id) >= 10 then
    raise exception 'A form can have at most 10 webhooks.' using errcode = 'check_violation',
      hint = 'webhook_limit';
  end if;
  return new;
end;
$$;

create trigger webhooks_limit
  before insert on public.webhooks
  for each row execute function public.limit_webhooks_per_form();

-- Queues one delivery per enabled webhook of the entry's form, in the entry's own transaction
-- (spam only to webhooks that ask for it). accept_submission() and any other writer are covered.
create function public.queue_webhook_deliveries()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
begin
  insert into public.webhook_deliveries (webhook_id, user_id, entry_id, event)
  select w.id, w.user_id, new.id, 'entry.created'
    from public.webhooks w
   where w.form_id = new.form_id
     and w.enabled
     and (not new.is_spam or w.send_spam);
  return null;
end;
$$;

create trigger entries_queue_webhooks
  after insert on public.entries
  for each row execute function public.queue_webhook_deliveries();

revoke execute on function public.prepare_webhook() from public, anon, authenticated;
revoke execute on function public.limit_webhooks_per_form() from public, anon, authenticated;
revoke execute on function public.queue_webhook_deliveries() from public, anon, authenticated;
revoke execute on function public.webhook_url_problem(text) from public, anon;
grant execute on function public.webhook_url_problem(text) to authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- Owner actions: a test event and "send again"
-- ------------------------------------------------------------------------------------------------

-- Queues a test event to one of the caller's webhooks; returns the delivery id.
create function public.send_webhook_test(p_webhook_id uuid)
returns uuid
language plpgsql
security definer set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
  v_id uuid;
  v_recent integer;
begin
  if v_user is null or not exists (
    select 1 from public.webhooks w where w.id = p_webhook_id and w.user_id = v_user
  ) then
    raise exception 'webhook not found' using errcode = 'no_data_found';
  end if;
  -- A button, not a way to flood a receiver: at most 10 test events per webhook and minute.
  select count(*) into v_recent from public.webhook_deliveries d
   where d.webhook_id = p_webhook_id and d.event = 'test'
     and d.created_at > now() - interval '1 minute';
  if v_recent >= 10 then
    raise exception 'Too many test events; wait a minute.' using errcode = 'check_violation',
      hint = 'webhook_rate_limited';
  end if;
  insert into public.webhook_deliveries (webhook_id, user_id, event)
  values (p_webhook_id, v_user, 'test')
  returning id into v_id;
  return v_id;
end;
$$;

-- Starts a new round of attempts for one of the caller's deliveries (sent or failed alike).
create function public.redeliver_webhook(p_delivery_id uuid)
returns uuid
language plpgsql
security definer set search_path = ''
as $$
declare
  v_user uuid := (select auth.uid());
  v_id uuid;
begin
  update public.webhook_deliveries d
     set status = 'pending', attempts = 0, next_attempt_at = now(), round_started_at = now(),
         lease = null, locked_until = null, updated_at = now()
   where d.id = p_delivery_id and d.user_id = v_user and d.status in ('sent', 'failed')
  returning d.id into v_id;
  if v_id is null then
    if exists (select 1 from public.webhook_deliveries d
                where d.id = p_delivery_id and d.user_id = v_user) then
      raise exception 'This delivery is already queued.' using errcode = 'check_violation',
        hint = 'webhook_already_queued';
    end if;
    raise exception 'delivery not found' using errcode = 'no_data_found';
  end if;
  return v_id;
end;
$$;

revoke execute on function public.send_webhook_test(uuid) from public, anon;
revoke execute on function public.redeliver_webhook(uuid) from public, anon;
grant execute on function public.send_webhook_test(uuid) to authenticated;
grant execute on function public.redeliver_webhook(uuid) to authenticated;

-- ------------------------------------------------------------------------------------------------
-- The worker (service role): claim under a lease, record each attempt
-- ------------------------------------------------------------------------------------------------

-- Leases due deliveries (or only `p_id` if never tried, or only those of entry `p_entry_id`: the
-- immediate attempts) and returns what the sender needs, the entry included.
create function public.claim_webhook_deliveries(
  p_id uuid,
  p_entry_id uuid,
  p_limit integer,
  p_lease_seconds integer
)
returns table (
  id uuid,
  lease uuid,
  attempts integer,
  event text,
  round_started_at timestamptz,
  webhook_id uuid,
  url text,
  format text,
  secret text,
  form_id uuid,
  form_name text,
  entry jsonb,
  allow_local boolean
)
language plpgsql
security definer set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
  with due as (
    select d.id
      from public.webhook_deliveries d
     where d.status in ('pending', 'sending')
       and d.next_attempt_at <= now()
       -- By id only a delivery never tried yet (the dashboard's "send now" after queueing one).
       and (p_id is null or (d.id = p_id and d.attempts = 0))
       and (p_entry_id is null or d.entry_id = p_entry_id)
     order by d.next_attempt_at
     limit greatest(p_limit, 0)
     for update skip locked
  ), claimed as (
    update public.webhook_deliveries d
       set status = 'sending',
           attempts = d.attempts + 1,
           lease = gen_random_uuid(),
           locked_until = now() + make_interval(secs => p_lease_seconds),
           next_attempt_at = now() + make_interval(secs => p_lease_seconds),
           updated_at = now()
      from due
     where d.id = due.id
    returning d.*
  )
  select c.id, c.lease, c.attempts, c.event, c.round_started_at, w.id, w.url, w.format, w.secret,
         f.id, f.name,
         case when e.id is null then null else jsonb_build_object(
           'id', e.id, 'name', e.name, 'email', e.email, 'message', e.message, 'data', e.data,
           'is_spam', e.is_spam, 'created_at', e.created_at) end,
         coalesce((select s.allow_local from public.webhook_settings s where s.id), false)
    from claimed c
    join public.webhooks w on w.id = c.webhook_id
    join public.forms f on f.id = w.form_id
    left join public.entries e on e.id = c.entry_id;
end;
$$;

-- Records one attempt and its outcome, only for the current lease holder (a stale worker's
-- answer is dropped). `p_retry_in_seconds` null with `p_ok` false: the delivery has failed.
create function public.finish_webhook_delivery(
  p_id uuid,
  p_lease uuid,
  p_ok boolean,
  p_status_code integer,
  p_error text,
  p_response_excerpt text,
  p_duration_ms integer,
  p_retry_in_seconds integer
)
returns boolean
language plpgsql
security definer set search_path = ''
as $$
declare
  v_row public.webhook_deliveries;
begin
  update public.webhook_deliveries d
     set status = case when p_ok then 'sent'
                       when p_retry_in_seconds is null then 'failed' else 'pending' end,
         next_attempt_at = case when p_ok or p_retry_in_seconds is null then d.next_attempt_at
                                else now() + make_interval(secs => p_retry_in_seconds) end,
         delivered_at = case when p_ok then now() else d.delivered_at end,
         last_status_code = p_status_code,
         last_error = case when p_ok then null else left(p_error, 500) end,
         lease = null, locked_until = null, updated_at = now()
   where d.id = p_id and d.lease = p_lease and d.status = 'sending'
  returning d.* into v_row;
  if v_row.id is null then
    return false;
  end if;
  insert into public.webhook_attempts
    (delivery_id, webhook_id, user_id, status_code, ok, error, response_excerpt, duration_ms)
  values (v_row.id, v_row.webhook_id, v_row.user_id, p_status_code, p_ok, left(p_error, 500),
          left(p_response_excerpt, 1000), p_duration_ms);
  return true;
end;
$$;

revoke execute on function public.claim_webhook_deliveries(uuid, uuid, integer, integer)
  from public, anon, authenticated;
revoke execute on function public.finish_webhook_delivery(uuid, uuid, boolean, integer, text, text, integer, integer)
  from public, anon, authenticated;
grant execute on function public.claim_webhook_deliveries(uuid, uuid, integer, integer) to service_role;
grant execute on function public.finish_webhook_delivery(uuid, uuid, boolean, integer, text, text, integer, integer)
  to service_role;

-- ------------------------------------------------------------------------------------------------
-- Row level security and grants
-- ------------------------------------------------------------------------------------------------
alter table public.webhook_settings enable row level security;
alter table public.webhooks enable row level security;
alter table public.webhook_deliveries enable row level security;
alter table public.webhook_attempts enable row level security;

create policy "Webhooks are viewable by their owner"
  on public.webhooks for select
  to authenticated
  using ((select auth.uid()) = user_id);

-- The form must be the caller's own: user_id alone is overwritten from the form by the trigger.
create policy "Webhooks can be created by the form owner"
  on public.webhooks for insert
  to authenticated
  with check (
    (select auth.uid()) = user_id
    and exists (select 1 from public.forms f
                 where f.id = form_id and f.user_id = (select auth.uid()))
  );

create policy "Webhooks are updatable by their owner"
  on public.webhooks for update
  to authenticated
  using ((select auth.uid()) = user_id)
  with check ((select auth.uid()) = user_id);

create policy "Webhooks are deletable by their owner"
  on public.webhooks for delete
  to authenticated
  using ((select auth.uid()) = user_id);

create policy "Webhook deliveries are viewable by their owner"
  on public.webhook_deliveries for select
  to authenticated
  using ((select auth.uid()) = user_id);

create policy "Webhook attempts are viewable by their owner"
  on public.webhook_attempts for select
  to authenticated
  using ((select auth.uid()) = user_id);

-- webhook_settings: the service role only (no policy, no grant to clients).
revoke all on public.webhook_settings from anon, authenticated;
grant all on public.webhook_settings to service_role;

revoke all on public.webhooks from anon, authenticated;
grant select, delete on public.webhooks to authenticated;
grant insert (form_id, user_id, url, format, send_spam, enabled) on public.webhooks to authenticated;
grant update (url, format, send_spam, enabled) on public.webhooks to authenticated;
grant all on public.webhooks to service_role;

revoke all on public.webhook_deliveries from anon, authenticated;
grant select on public.webhook_deliveries to authenticated;
grant all on public.webhook_deliveries to service_role;

revoke all on public.webhook_attempts from anon, authenticated;
grant select on public.webhook_attempts to authenticated;
grant all on public.webhook_attempts to service_role;
