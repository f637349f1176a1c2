-- Webhooks
--
-- Webhook targets, trigger-queued deliveries, attempt log, limits and the local-targets switch.
--
-- Part of the declarative schema (supabase/schemas/, loaded in file-name order, as
-- config.toml's [db.migrations] schema_paths says): the current definition of this capability.
-- Change it here, then `npm run db:diff` prints the migration to add to supabase/migrations/.

-- Function bodies may name objects of later files.
set check_function_bodies = off;

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table public.webhooks (
  id uuid default gen_random_uuid() not null,
  form_id uuid not null,
  user_id uuid not null,
  url text not null,
  format text default 'json'::text not null,
  send_spam boolean default false not null,
  enabled boolean default true not null,
  secret text not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  consecutive_failures integer default 0 not null,
  disabled_at timestamp with time zone,
  disabled_reason text,
  constraint webhooks_pkey PRIMARY KEY (id),
  constraint webhooks_form_id_fkey FOREIGN KEY (form_id) REFERENCES public.forms(id) ON DELETE CASCADE,
  constraint webhooks_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint webhooks_disabled_consistent CHECK (((disabled_at IS NULL) = (disabled_reason IS NULL))),
  constraint webhooks_disabled_reason CHECK ((disabled_reason = 'failing'::text)),
  constraint webhooks_format CHECK ((format = ANY (ARRAY['json'::text, 'slack'::text, 'discord'::text]))),
  constraint webhooks_url_length CHECK ((char_length(url) <= 2000))
);
create index webhooks_form_id_idx ON public.webhooks (form_id);
create index webhooks_user_id_idx ON public.webhooks (user_id);
comment on table public.webhooks is
  'Per-form webhook targets; deliveries in webhook_deliveries.';
comment on column public.webhooks.consecutive_failures is
  'Failed attempts in a row; at 50 the webhook is turned off (disabled_reason = failing).';
comment on column public.webhooks.disabled_reason is
  'Why tinyback turned the webhook off (failing: 50 failed attempts in a row); null when it did not.';

create table public.webhook_deliveries (
  id uuid default gen_random_uuid() not null,
  webhook_id uuid not null,
  user_id uuid not null,
  entry_id uuid,
  event text not null,
  status text default 'pending'::text not null,
  attempts integer default 0 not null,
  next_attempt_at timestamp with time zone default now() not null,
  round_started_at timestamp with time zone default now() not null,
  lease uuid,
  locked_until timestamp with time zone,
  last_status_code integer,
  last_error text,
  delivered_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint webhook_deliveries_pkey PRIMARY KEY (id),
  constraint webhook_deliveries_entry_id_fkey FOREIGN KEY (entry_id) REFERENCES public.entries(id) ON DELETE CASCADE,
  constraint webhook_deliveries_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint webhook_deliveries_webhook_id_fkey FOREIGN KEY (webhook_id) REFERENCES public.webhooks(id) ON DELETE CASCADE,
  constraint webhook_deliveries_event CHECK ((event = ANY (ARRAY['entry.created'::text, 'test'::text]))),
  constraint webhook_deliveries_status CHECK ((status = ANY (ARRAY['pending'::text, 'sending'::text, 'sent'::text, 'failed'::text])))
);
create index webhook_deliveries_due_idx ON public.webhook_deliveries (next_attempt_at) WHERE (status = ANY (ARRAY['pending'::text, 'sending'::text]));
create index webhook_deliveries_entry_idx ON public.webhook_deliveries (entry_id);
create index webhook_deliveries_user_id_idx ON public.webhook_deliveries (user_id);
create index webhook_deliveries_webhook_idx ON public.webhook_deliveries (webhook_id, created_at DESC);
comment on table public.webhook_deliveries is
  'Webhook outbox: one row per (webhook, event); sent by the forms function''s _deliver run.';

create table public.webhook_attempts (
  id bigint generated always as identity,
  delivery_id uuid not null,
  webhook_id uuid not null,
  user_id uuid not null,
  attempted_at timestamp with time zone default now() not null,
  status_code integer,
  ok boolean not null,
  error text,
  response_excerpt text,
  duration_ms integer,
  constraint webhook_attempts_pkey PRIMARY KEY (id),
  constraint webhook_attempts_delivery_id_fkey FOREIGN KEY (delivery_id) REFERENCES public.webhook_deliveries(id) ON DELETE CASCADE,
  constraint webhook_attempts_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint webhook_attempts_webhook_id_fkey FOREIGN KEY (webhook_id) REFERENCES public.webhooks(id) ON DELETE CASCADE,
  constraint webhook_attempts_error_length CHECK ((char_length(error) <= 500)),
  constraint webhook_attempts_excerpt_length CHECK ((char_length(response_excerpt) <= 1000))
);
create index webhook_attempts_delivery_idx ON public.webhook_attempts (delivery_id);
create index webhook_attempts_user_id_idx ON public.webhook_attempts (user_id);
create index webhook_attempts_webhook_idx ON public.webhook_attempts (webhook_id, attempted_at DESC);
comment on table public.webhook_attempts is
  'Every webhook attempt, for the owner''s delivery log.';

create table private.webhook_settings (
  id boolean default true not null,
  allow_local boolean default false not null,
  constraint webhook_settings_pkey PRIMARY KEY (id),
  constraint webhook_settings_id_check CHECK (id)
);
comment on table private.webhook_settings is
  'One row; allow_local lets webhooks target local addresses (local development only).';

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------
create or replace function public.prepare_webhook()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_owner uuid;
  v_problem text;
begin
  if tg_op = 'INSERT' then
    perform private.refuse_unless_form_owner(new.form_id, 'webhooks');
    select f.user_id into v_owner from public.forms f where f.id = new.form_id;
    if v_owner is null then
      raise exception 'form % does not exist', new.form_id using errcode = 'foreign_key_violation';
    end if;
    new.user_id := v_owner;
    new.secret := 'whsec_' || encode(extensions.gen_random_bytes(32), 'hex');
    new.created_at := now();
    new.consecutive_failures := 0;
    new.disabled_at := null;
    new.disabled_reason := null;
  else
    new.form_id := old.form_id;
    new.user_id := old.user_id;
    new.secret := old.secret;
    new.created_at := old.created_at;
    if new.enabled and not old.enabled then
      new.consecutive_failures := 0;
      new.disabled_at := null;
      new.disabled_reason := null;
    end if;
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
$function$;
revoke all on function public.prepare_webhook() from public, anon, authenticated, service_role;

create or replace function public.limit_webhooks_per_form()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  c_per_form constant integer := 10;
  c_per_account constant integer := 25;
begin
  perform private.refuse_unless_form_owner(new.form_id, 'webhooks');
  -- This trigger runs before webhooks_prepare (alphabetical order): the owner comes from the form.
  select f.user_id into new.user_id from public.forms f where f.id = new.form_id for update;
  perform pg_advisory_xact_lock(hashtextextended('tinyback.webhooks:' || new.user_id::text, 0));
  if (select count(*) from public.webhooks w where w.form_id = new.form_id) >= c_per_form then
    raise exception 'A form can have at most 10 webhooks.' using errcode = 'check_violation',
      hint = 'webhook_limit';
  end if;
  if (select count(*) from public.webhooks w where w.user_id = new.user_id) >= c_per_account then
    raise exception 'An account can have at most 25 webhooks.' using errcode = 'check_violation',
      hint = 'webhook_limit';
  end if;
  return new;
end;
$function$;
revoke all on function public.limit_webhooks_per_form() from public, anon, authenticated, service_role;

create or replace function public.queue_webhook_deliveries()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  insert into public.webhook_deliveries (webhook_id, user_id, entry_id, event)
  select w.id, w.user_id, new.id, 'entry.created'
    from public.webhooks w
   where w.form_id = new.form_id
     and w.enabled
     and (not new.is_spam or w.send_spam);
  return null;
end;
$function$;
revoke all on function public.queue_webhook_deliveries() from public, anon, authenticated, service_role;

create or replace function public.claim_webhook_deliveries(p_id uuid, p_entry_id uuid, p_limit integer, p_lease_seconds integer)
 RETURNS TABLE(id uuid, lease uuid, attempts integer, event text, round_started_at timestamp with time zone, webhook_id uuid, url text, format text, secret text, form_id uuid, form_name text, entry jsonb, allow_local boolean)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
#variable_conflict use_column
declare
  c_per_host_minute constant integer := 60;
  v_due record;
  v_host text;
  v_oldest timestamptz;
  v_claimed uuid[] := '{}';
begin
  for v_due in
    select d.id, d.user_id, w.url
      from public.webhook_deliveries d
      join public.webhooks w on w.id = d.webhook_id
     where d.status in ('pending', 'sending')
       and d.next_attempt_at <= now()
       -- By id only a delivery never tried yet (the dashboard's "send now" after queueing one).
       and (p_id is null or (d.id = p_id and d.attempts = 0))
       and (p_entry_id is null or d.entry_id = p_entry_id)
     order by d.next_attempt_at
     limit greatest(p_limit, 0)
     for update of d skip locked
  loop
    v_host := private.url_host(v_due.url);
    perform pg_advisory_xact_lock(
      hashtextextended('tinyback.webhook-host:' || v_due.user_id::text || ':' || v_host, 0));
    if private.ledger_count('webhook_attempt', now() - interval '1 minute', c_per_host_minute,
                            v_due.user_id, v_host) >= c_per_host_minute then
      select min(l.created_at) into v_oldest from (
        select l.created_at from private.action_ledger l
         where l.kind = 'webhook_attempt' and l.user_id = v_due.user_id and l.target = v_host
           and l.created_at > now() - interval '1 minute'
         order by l.created_at desc limit c_per_host_minute) l;
      update public.webhook_deliveries d
         set status = 'pending', lease = null, locked_until = null,
             next_attempt_at = coalesce(v_oldest, now()) + interval '1 minute', updated_at = now()
       where d.id = v_due.id;
      continue;
    end if;
    insert into private.action_ledger (kind, user_id, target) values ('webhook_attempt', v_due.user_id, v_host);
    v_claimed := v_claimed || v_due.id;
  end loop;

  return query
  with claimed as (
    update public.webhook_deliveries d
       set status = 'sending',
           attempts = d.attempts + 1,
           lease = gen_random_uuid(),
           locked_until = now() + make_interval(secs => p_lease_seconds),
           next_attempt_at = now() + make_interval(secs => p_lease_seconds),
           updated_at = now()
     where d.id = any (v_claimed)
    returning d.*
  )
  select c.id, c.lease, c.attempts, c.event, c.round_started_at, w.id, w.url, w.format, w.secret,
         f.id, f.name,
         case when e.id is null then null else jsonb_build_object(
           'id', e.id, 'name', e.name, 'email', e.email, 'message', e.message, 'data', e.data,
           'is_spam', e.is_spam, 'created_at', e.created_at,
           -- The entry's files (16-uploads.sql): the sender signs each key into an expiring URL.
           'files', coalesce((select jsonb_agg(jsonb_build_object(
               'name', ef.name, 'size', ef.size, 'kind', ef.kind, 'mime_type', ef.mime_type,
               'object_key', ef.object_key) order by ef."position")
             from public.entry_files ef where ef.entry_id = e.id), '[]'::jsonb)) end,
         coalesce((select s.allow_local from private.webhook_settings s where s.id), false)
    from claimed c
    join public.webhooks w on w.id = c.webhook_id
    join public.forms f on f.id = w.form_id
    left join public.entries e on e.id = c.entry_id;
end;
$function$;
revoke all on function public.claim_webhook_deliveries(p_id uuid, p_entry_id uuid, p_limit integer, p_lease_seconds integer) from public, anon, authenticated, service_role;
grant execute on function public.claim_webhook_deliveries(p_id uuid, p_entry_id uuid, p_limit integer, p_lease_seconds integer) to service_role;

create or replace function public.finish_webhook_delivery(p_id uuid, p_lease uuid, p_ok boolean, p_status_code integer, p_error text, p_response_excerpt text, p_duration_ms integer, p_retry_in_seconds integer)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  c_failures_before_off constant integer := 50;
  v_row public.webhook_deliveries;
  v_hook public.webhooks;
begin
  update public.webhook_deliveries d
     set status = case when p_ok then 'sent'
                       when p_retry_in_seconds is null or d.event = 'test' then 'failed'
                       else 'pending' end,
         next_attempt_at = case when p_ok or p_retry_in_seconds is null or d.event = 'test'
                                then d.next_attempt_at
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

  update public.webhooks w
     set consecutive_failures = case when p_ok then 0 else w.consecutive_failures + 1 end
   where w.id = v_row.webhook_id
  returning w.* into v_hook;
  if not p_ok and v_hook.enabled and v_hook.consecutive_failures >= c_failures_before_off then
    perform private.turn_off_failing_webhook(v_hook);
  end if;
  return true;
end;
$function$;
revoke all on function public.finish_webhook_delivery(p_id uuid, p_lease uuid, p_ok boolean, p_status_code integer, p_error text, p_response_excerpt text, p_duration_ms integer, p_retry_in_seconds integer) from public, anon, authenticated, service_role;
grant execute on function public.finish_webhook_delivery(p_id uuid, p_lease uuid, p_ok boolean, p_status_code integer, p_error text, p_response_excerpt text, p_duration_ms integer, p_retry_in_seconds integer) to service_role;

create or replace function public.redeliver_webhook(p_delivery_id uuid)
 RETURNS uuid
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_user uuid := (select auth.uid());
  v_status text;
  v_id uuid;
begin
  select d.status into v_status from public.webhook_deliveries d
   where d.id = p_delivery_id and d.user_id = v_user for update;
  if not found then
    raise exception 'This delivery no longer exists.' using errcode = 'PT404';
  end if;
  if v_status not in ('sent', 'failed') then
    raise exception 'This delivery is already queued.' using errcode = 'check_violation',
      hint = 'webhook_already_queued';
  end if;
  perform private.take_manual_webhook_send(v_user);
  update public.webhook_deliveries d
     set status = 'pending', attempts = 0, next_attempt_at = now(), round_started_at = now(),
         lease = null, locked_until = null, updated_at = now()
   where d.id = p_delivery_id
  returning d.id into v_id;
  return v_id;
end;
$function$;
revoke all on function public.redeliver_webhook(p_delivery_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.redeliver_webhook(p_delivery_id uuid) to authenticated;

create or replace function public.send_webhook_test(p_webhook_id uuid)
 RETURNS uuid
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_user uuid := (select auth.uid());
  v_id uuid;
begin
  if v_user is null or not exists (
    select 1 from public.webhooks w where w.id = p_webhook_id and w.user_id = v_user
  ) then
    raise exception 'This webhook no longer exists.' using errcode = 'PT404';
  end if;
  perform private.take_manual_webhook_send(v_user);
  insert into public.webhook_deliveries (webhook_id, user_id, event)
  values (p_webhook_id, v_user, 'test')
  returning id into v_id;
  return v_id;
end;
$function$;
revoke all on function public.send_webhook_test(p_webhook_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.send_webhook_test(p_webhook_id uuid) to authenticated;

create or replace function public.webhook_address_is_public(p_addr inet)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select not (
    p_addr <<= any (array[
      '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16',
      '172.16.0.0/12', '192.0.0.0/24', '192.0.2.0/24', '192.88.99.0/24', '192.168.0.0/16',
      '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4',
      '::/96', '::ffff:0:0/96', '::ffff:0:0:0/96', '64:ff9b::/96', '64:ff9b:1::/48', '100::/64',
      '2001::/32', '2001:db8::/32', '2002::/16', 'fc00::/7', 'fe80::/10', 'fec0::/10', 'ff00::/8'
    ]::inet[])
  );
$function$;

create or replace function public.webhook_url_problem(p_url text)
 RETURNS text
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_allow_local boolean := coalesce(
    (select s.allow_local from private.webhook_settings s where s.id), false);
  v_m text[];
  v_host text;
  v_last text;
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
  -- The host without the port (an IPv6 literal keeps its brackets until here), folded the way
  -- host names are (compatibility forms such as ① or full-width digits, the other full stops,
  -- invisible characters dropped).
  v_host := lower(v_m[2]);
  if v_host ~ '^\[' then
    v_host := substring(v_host from '^\[([0-9a-f:.]+)\](:[0-9]+)?$');
  else
    v_host := substring(v_host from '^([^:]+)(:[0-9]+)?$');
    v_host := lower(translate(normalize(v_host, NFKC), '。｡．', '...'));
    v_host := regexp_replace(v_host, '[\u00ad\u034f\u180b-\u180d\u200b-\u200d\u2060\ufe00-\ufe0f\ufeff]', '', 'g');
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
  if v_host ~ ':' then
    begin
      v_addr := v_host::inet;
    exception when others then
      return 'The URL has no valid host.';
    end;
  else
    -- A host whose last label is a number is an IPv4 address to a browser, or no host at all.
    v_last := substring(v_host from '([^.]*)$');
    if v_last ~ '^(0x[0-9a-f]*|[0-9]+)$' then
      v_addr := private.whatwg_ipv4(v_host);
      if v_addr is null then
        return 'Webhooks cannot target numeric addresses in this form.';
      end if;
    end if;
  end if;
  if v_addr is not null and not public.webhook_address_is_public(v_addr) then
    return 'Webhooks cannot target private, loopback, link-local or metadata addresses.';
  end if;
  return null;
end;
$function$;
revoke all on function public.webhook_url_problem(p_url text) from public, anon, authenticated, service_role;
grant execute on function public.webhook_url_problem(p_url text) to authenticated;
grant execute on function public.webhook_url_problem(p_url text) to service_role;

create or replace function private.take_manual_webhook_send(p_user uuid)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  c_per_minute constant integer := 10;
  c_per_day constant integer := 100;
begin
  perform pg_advisory_xact_lock(hashtextextended('tinyback.webhook-manual:' || p_user::text, 0));
  if private.ledger_count('webhook_manual_send', now() - interval '1 minute', c_per_minute, p_user)
       >= c_per_minute
     or private.ledger_count('webhook_manual_send', now() - interval '1 day', c_per_day, p_user)
       >= c_per_day then
    raise exception 'Too many test events and resends; wait a minute.' using errcode = 'PT429',
      hint = 'webhook_rate_limited';
  end if;
  insert into private.action_ledger (kind, user_id) values ('webhook_manual_send', p_user);
end;
$function$;
revoke all on function private.take_manual_webhook_send(p_user uuid) from public, anon, authenticated, service_role;

create or replace function private.turn_off_failing_webhook(p_hook public.webhooks)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_owner text;
  v_form text;
  v_host text := private.url_host(p_hook.url);
  v_text text;
begin
  update public.webhooks w
     set enabled = false, disabled_at = now(), disabled_reason = 'failing', updated_at = now()
   where w.id = p_hook.id;
  update public.webhook_deliveries d
     set status = 'failed',
         last_error = 'Not sent: the webhook was turned off after 50 failed attempts in a row.',
         lease = null, locked_until = null, updated_at = now()
   where d.webhook_id = p_hook.id and d.status = 'pending';

  select u.email into v_owner from auth.users u
   where u.id = p_hook.user_id and u.email_confirmed_at is not null;
  if v_owner is null then
    return;
  end if;
  select regexp_replace(f.name, '[\x01-\x1f\x7f-\x9f\u2028\u2029]+', ' ', 'g') into v_form
    from public.forms f where f.id = p_hook.form_id;
  v_text := concat_ws(E'\n',
    'Hello,',
    '',
    format('Your webhook to %s on the form "%s" failed 50 times in a row, so tinyback turned it off. '
           || 'New messages are not sent to it until you turn it on again.', v_host, v_form),
    '',
    'Check that the URL is right and that the receiver answers with a 2xx status, then turn the '
      || 'webhook on again under Forms → Edit → Webhooks. Deliveries that failed meanwhile can be '
      || 'sent again from its delivery log.',
    '');
  insert into public.email_deliveries (kind, user_id, recipient, subject, text_body, html_body)
    values (
      'webhook_disabled', p_hook.user_id, v_owner,
      left(format('Your webhook on "%s" was turned off', v_form), 200),
      v_text,
      '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">'
        || replace(public.confirmation_mail_escape(v_text), E'\n', '<br>')
        || '</body></html>'
    );
end;
$function$;
revoke all on function private.turn_off_failing_webhook(p_hook public.webhooks) from public, anon, authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------
create trigger entries_queue_webhooks AFTER INSERT ON public.entries FOR EACH ROW EXECUTE FUNCTION public.queue_webhook_deliveries();
create trigger webhooks_limit BEFORE INSERT ON public.webhooks FOR EACH ROW EXECUTE FUNCTION public.limit_webhooks_per_form();
create trigger webhooks_prepare BEFORE INSERT OR UPDATE ON public.webhooks FOR EACH ROW EXECUTE FUNCTION public.prepare_webhook();

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table public.webhooks enable row level security;
create policy "Webhooks are deletable by their owner" on public.webhooks
  for delete to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));
create policy "Webhooks can be created by the form owner" on public.webhooks
  for insert to authenticated
  with check (((( SELECT auth.uid() AS uid) = user_id) AND (EXISTS ( SELECT 1
   FROM public.forms f
  WHERE ((f.id = webhooks.form_id) AND (f.user_id = ( SELECT auth.uid() AS uid)))))));
create policy "Webhooks are viewable by their owner" on public.webhooks
  for select to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));
create policy "Webhooks are updatable by their owner" on public.webhooks
  for update to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id))
  with check ((( SELECT auth.uid() AS uid) = user_id));

alter table public.webhook_deliveries enable row level security;
create policy "Webhook deliveries are viewable by their owner" on public.webhook_deliveries
  for select to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));

alter table public.webhook_attempts enable row level security;
create policy "Webhook attempts are viewable by their owner" on public.webhook_attempts
  for select to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));

alter table private.webhook_settings enable row level security;

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table public.webhooks from public, anon, authenticated, service_role;
grant select, delete on table public.webhooks to authenticated;
grant all on table public.webhooks to service_role;
grant insert (form_id, user_id, url, format, send_spam, enabled) on table public.webhooks to authenticated;
grant update (url, format, send_spam, enabled) on table public.webhooks to authenticated;
revoke all on table public.webhook_deliveries from public, anon, authenticated, service_role;
grant select on table public.webhook_deliveries to authenticated;
grant all on table public.webhook_deliveries to service_role;
revoke all on table public.webhook_attempts from public, anon, authenticated, service_role;
grant select on table public.webhook_attempts to authenticated;
grant all on table public.webhook_attempts to service_role;
revoke all on table private.webhook_settings from public, anon, authenticated, service_role;
