-- Autoresponder and retention, per form.
--
-- Autoresponder: an owner-written reply (subject and body with merge fields such as {{name}} or
-- {{form}}) e-mailed to the address a visitor entered. An AFTER INSERT trigger on `entries` renders
-- it and queues it in the e-mail outbox (`email_deliveries`, kind `autoresponse`) in the entry's own
-- transaction, whoever inserts the entry, as the webhooks are queued. It never answers spam, never
-- an address that fails validation, never one address twice per form within a day (a unique
-- (form, address hash, day) row), and only for forms whose target address is verified. Because
-- the visitor, not the owner, picks the recipient, the database also caps it: per account
-- (AUTORESPONSE_PER_HOUR / AUTORESPONSE_PER_DAY below) and per recipient across every account,
-- so an autoresponder cannot be turned into a way to mail arbitrary addresses in bulk.
--
-- Retention: delete a form's entries older than N days (1–3650), or "forward only": an entry is
-- removed once all its deliveries (the notification, the autoresponse, every webhook) are sent or
-- have finally failed. sweep_retention() does the work; pg_cron calls it every minute on Supabase,
-- and the local stack's scheduler calls the same function through the REST API.

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table public.form_autoresponders (
  form_id uuid primary key references public.forms (id) on delete cascade,
  -- The form's owner, copied from the form by a trigger (policies filter on it without a join).
  user_id uuid not null references auth.users (id) on delete cascade,
  enabled boolean not null default false,
  subject text not null default 'Thanks for your message',
  body text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- The subject becomes a header: one line, no control characters.
  constraint form_autoresponders_subject check (
    char_length(btrim(subject)) between 1 and 200 and subject !~ '[[:cntrl:]]'
  ),
  constraint form_autoresponders_body check (char_length(body) <= 5000)
);

comment on table public.form_autoresponders is
  'Per-form autoresponder: subject and body (merge fields {{name}}, {{form}}…) mailed to the submitter.';

create index form_autoresponders_user_id_idx on public.form_autoresponders (user_id);

create table public.form_retention (
  form_id uuid primary key references public.forms (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  -- `days`: delete entries older than `days`; `forward_only`: delete once delivered.
  mode text not null,
  days integer,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint form_retention_mode check (mode in ('days', 'forward_only')),
  constraint form_retention_days check (
    (mode = 'days' and days between 1 and 3650) or (mode = 'forward_only' and days is null)
  )
);

comment on table public.form_retention is
  'Per-form retention rule (no row: entries are kept until deleted); applied by sweep_retention().';

create index form_retention_user_id_idx on public.form_retention (user_id);

-- One row per autoresponse queued: the once-a-day rule (its primary key), the caps, and the link
-- from an entry to its autoresponse mail (for "forward only"). Kept apart from the entries and the
-- outbox, so deleting messages never wins a fresh allowance.
create table public.autoresponse_sends (
  form_id uuid not null references public.forms (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  -- SHA-256 of the lower-cased address: the rule needs no readable copy of it.
  address_hash text not null,
  day date not null,
  -- No foreign key: the entry may be deleted before its autoresponse goes out.
  entry_id uuid,
  delivery_id uuid references public.email_deliveries (id) on delete set null,
  created_at timestamptz not null default now(),
  primary key (form_id, address_hash, day)
);

comment on table public.autoresponse_sends is
  'Autoresponses queued (one per form, address and day); counted for the caps, purged by sweep_retention().';

create index autoresponse_sends_user_created_idx on public.autoresponse_sends (user_id, created_at desc);
create index autoresponse_sends_address_created_idx
  on public.autoresponse_sends (address_hash, created_at desc);
create index autoresponse_sends_entry_idx on public.autoresponse_sends (entry_id);
create index autoresponse_sends_delivery_idx on public.autoresponse_sends (delivery_id);

-- The outbox carries the new kind (never tied to an entry: entry_id stays the notification's).
alter table public.email_deliveries
  drop constraint email_deliveries_kind,
  add constraint email_deliveries_kind check (
    kind in ('notification', 'target_confirmation', 'newsletter_confirmation', 'autoresponse')
  );

-- ------------------------------------------------------------------------------------------------
-- Settings triggers: the owner comes from the form, and neither changes afterwards
-- ------------------------------------------------------------------------------------------------
create function public.prepare_form_setting()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    select f.user_id into new.user_id from public.forms f where f.id = new.form_id;
    if new.user_id is null then
      raise exception 'form % does not exist', new.form_id using errcode = 'foreign_key_violation';
    end if;
    new.created_at := now();
  else
    new.form_id := old.form_id;
    new.user_id := old.user_id;
    new.created_at := old.created_at;
  end if;
  new.updated_at := now();
  return new;
end;
$$;

create trigger form_autoresponders_prepare
  before insert or update on public.form_autoresponders
  for each row execute function public.prepare_form_setting();

create trigger form_retention_prepare
  before insert or update on public.form_retention
  for each row execute function public.prepare_form_setting();

-- ------------------------------------------------------------------------------------------------
-- Rendering
-- ------------------------------------------------------------------------------------------------

-- Fills {{key}} merge fields from p_values in one pass: a value is never read as a template, so a
-- visitor who types "{{email}}" gets those characters back. Unknown keys become empty. With
-- p_one_line, values lose line breaks and control characters (the subject is a header).
create function public.autoresponse_fill(p_template text, p_values jsonb, p_one_line boolean)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_pattern constant text := '\{\{\s*([A-Za-z0-9_.-]{1,100})\s*\}\}';
  v_parts text[] := regexp_split_to_array(coalesce(p_template, ''), v_pattern);
  v_keys text[];
  v_out text := v_parts[1];
  v_value text;
  v_json jsonb;
begin
  select array_agg(m[1] order by n) into v_keys
    from regexp_matches(coalesce(p_template, ''), v_pattern, 'g') with ordinality as t(m, n);
  for i in 1 .. coalesce(array_length(v_keys, 1), 0) loop
    v_json := p_values -> v_keys[i];
    v_value := case
      when v_json is null or jsonb_typeof(v_json) = 'null' then ''
      when jsonb_typeof(v_json) = 'string' then v_json #>> '{}'
      else v_json::text
    end;
    if p_one_line then
      v_value := regexp_replace(v_value, '[\x01-\x1f\x7f-\x9f\u2028\u2029]+', ' ', 'g');
    end if;
    v_out := v_out || v_value || coalesce(v_parts[i + 1], '');
  end loop;
  return v_out;
end;
$$;

-- Whether an address may receive an autoresponse: the endpoint's own shape check, repeated here
-- for writers that bypass it.
create function public.autoresponse_address_ok(p_address text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_address is not null
     and char_length(p_address) <= 254
     and p_address !~ '\.\.'
     and p_address ~* '^[a-z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$';
$$;

-- ------------------------------------------------------------------------------------------------
-- Queueing, in the entry's transaction
-- ------------------------------------------------------------------------------------------------
create function public.queue_autoresponse()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
declare
  -- The caps. An account's autoresponses per rolling hour and day, and the autoresponses one
  -- address receives per day from all accounts together.
  c_per_hour constant integer := 50;
  c_per_day constant integer := 200;
  c_per_recipient_day constant integer := 5;
  v_auto public.form_autoresponders%rowtype;
  v_form public.forms%rowtype;
  v_address text;
  v_hash text;
  v_values jsonb;
  v_subject text;
  v_text text;
  v_html text;
  v_footer text;
  v_delivery uuid;
begin
  if new.is_spam or not public.autoresponse_address_ok(new.email) then
    return null;
  end if;
  select a.* into v_auto from public.form_autoresponders a
   where a.form_id = new.form_id and a.enabled;
  if not found then
    return null;
  end if;
  select f.* into v_form from public.forms f where f.id = new.form_id;
  -- Only an owner with a confirmed address sends in tinyback's name.
  if not v_form.target_verified then
    return null;
  end if;

  v_address := lower(new.email);
  v_hash := encode(sha256(convert_to(v_address, 'UTF8')), 'hex');

  -- One decision at a time per account, then per address, so racing posts see each other.
  perform pg_advisory_xact_lock(hashtextextended('tinyback.autoresponse:' || v_form.user_id::text, 0));
  perform pg_advisory_xact_lock(hashtextextended('tinyback.autoresponse-to:' || v_hash, 0));
  if exists (select 1 from public.autoresponse_sends s
              where s.form_id = new.form_id and s.address_hash = v_hash
                and s.created_at > now() - interval '1 day')
     or (select count(*) from (select 1 from public.autoresponse_sends s
           where s.user_id = v_form.user_id and s.created_at > now() - interval '1 hour'
           limit c_per_hour) h) >= c_per_hour
     or (select count(*) from (select 1 from public.autoresponse_sends s
           where s.user_id = v_form.user_id and s.created_at > now() - interval '1 day'
           limit c_per_day) d) >= c_per_day
     or (select count(*) from (select 1 from public.autoresponse_sends s
           where s.address_hash = v_hash and s.created_at > now() - interval '1 day'
           limit c_per_recipient_day) r) >= c_per_recipient_day then
    return null;
  end if;
  -- The unique row is the rule itself; a racing duplicate (same form, address and day) is dropped.
  insert into public.autoresponse_sends (form_id, user_id, address_hash, day, entry_id)
    values (new.form_id, v_form.user_id, v_hash, (now() at time zone 'utc')::date, new.id)
    on conflict do nothing;
  if not found then
    return null;
  end if;

  -- Merge values: every submitted field by name, then the standard ones.
  v_values := coalesce(new.data, '{}'::jsonb) || jsonb_build_object(
    'name', coalesce(new.name, ''),
    'email', new.email,
    'message', coalesce(new.message, ''),
    'form', v_form.name
  );
  v_subject := left(btrim(regexp_replace(
    public.autoresponse_fill(v_auto.subject, v_values, true),
    '[\x01-\x1f\x7f-\x9f\u2028\u2029]+', ' ', 'g')), 200);
  if v_subject = '' then
    v_subject := 'Thanks for your message';
  end if;
  v_text := public.autoresponse_fill(v_auto.body, v_values, false);
  -- Says why the mail came, so an address entered by someone else is not left guessing.
  v_footer := format('You receive this because this address was entered in the form "%s" on %s.',
                     regexp_replace(v_form.name, '[\x01-\x1f\x7f-\x9f\u2028\u2029]+', ' ', 'g'),
                     v_form.allowed_origin);
  -- The HTML part is the text, escaped whole (the owner's words and the visitor's values alike).
  v_html := '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">'
    || '<div>' || replace(public.confirmation_mail_escape(v_text), E'\n', '<br>') || '</div>'
    || '<p style="color:#666;font-size:12px">' || public.confirmation_mail_escape(v_footer)
    || '</p></body></html>';

  insert into public.email_deliveries (kind, user_id, recipient, subject, reply_to, text_body, html_body)
    values ('autoresponse', v_form.user_id, v_address, v_subject, v_form.target_email,
            v_text || E'\n\n--\n' || v_footer, v_html)
    returning id into v_delivery;
  update public.autoresponse_sends s set delivery_id = v_delivery
   where s.form_id = new.form_id and s.address_hash = v_hash
     and s.day = (now() at time zone 'utc')::date;
  return null;
end;
$$;

create trigger entries_queue_autoresponse
  after insert on public.entries
  for each row execute function public.queue_autoresponse();

-- ------------------------------------------------------------------------------------------------
-- The sweep
-- ------------------------------------------------------------------------------------------------

-- Applies every form's retention rule, at most p_limit entries per rule kind and run (the next run
-- goes on), and forgets autoresponse bookkeeping nobody needs. Returns what it removed.
create function public.sweep_retention(p_limit integer default 5000)
returns jsonb
language plpgsql
security definer set search_path = ''
as $$
declare
  v_old integer;
  v_forwarded integer;
  v_mails integer;
begin
  -- Entries older than their form's number of days.
  with doomed as (
    select e.id
      from public.form_retention r
      join public.entries e
        on e.form_id = r.form_id and e.created_at < now() - make_interval(days => r.days)
     where r.mode = 'days'
     limit greatest(p_limit, 0)
  )
  delete from public.entries e using doomed where e.id = doomed.id;
  get diagnostics v_old = row_count;

  -- "Forward only": entries none of whose deliveries is still pending or being sent. Deliveries
  -- are queued in the entry's transaction, so a committed entry without one has none to wait for.
  with doomed as (
    select e.id
      from public.form_retention r
      join public.entries e on e.form_id = r.form_id
     where r.mode = 'forward_only'
       and not exists (select 1 from public.email_deliveries d
                        where d.entry_id = e.id and d.status in ('pending', 'sending'))
       and not exists (select 1 from public.webhook_deliveries w
                        where w.entry_id = e.id and w.status in ('pending', 'sending'))
       and not exists (select 1 from public.autoresponse_sends s
                         join public.email_deliveries d on d.id = s.delivery_id
                        where s.entry_id = e.id and d.status in ('pending', 'sending'))
     limit greatest(p_limit, 0)
  )
  delete from public.entries e using doomed where e.id = doomed.id;
  get diagnostics v_forwarded = row_count;

  -- Autoresponse mails hold a copy of what the visitor wrote: once finished, they go with the
  -- form's rule (at once for "forward only", after N days), and after 30 days in any case.
  delete from public.email_deliveries d
   using public.autoresponse_sends s
    left join public.form_retention r on r.form_id = s.form_id
   where d.id = s.delivery_id
     and d.status in ('sent', 'failed')
     and (r.mode = 'forward_only'
          or d.created_at < now() - make_interval(days => least(coalesce(r.days, 30), 30)));
  get diagnostics v_mails = row_count;

  -- The once-a-day rule and the caps look back one day; their rows are kept two.
  delete from public.autoresponse_sends s
   where s.created_at < now() - interval '2 days'
     and (s.delivery_id is null or exists (
       select 1 from public.email_deliveries d
        where d.id = s.delivery_id and d.status in ('sent', 'failed')));

  return jsonb_build_object('expired', v_old, 'forwarded', v_forwarded, 'autoresponses', v_mails);
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Row level security and grants
-- ------------------------------------------------------------------------------------------------
alter table public.form_autoresponders enable row level security;
alter table public.form_retention enable row level security;
alter table public.autoresponse_sends enable row level security;

create policy "Autoresponders are viewable by their owner"
  on public.form_autoresponders for select to authenticated
  using ((select auth.uid()) = user_id);
-- The form must be the caller's own: user_id alone is overwritten from the form by the trigger.
create policy "Autoresponders can be created by the form owner"
  on public.form_autoresponders for insert to authenticated
  with check (
    (select auth.uid()) = user_id
    and exists (select 1 from public.forms f
                 where f.id = form_id and f.user_id = (select auth.uid()))
  );
create policy "Autoresponders are updatable by their owner"
  on public.form_autoresponders for update to authenticated
  using ((select auth.uid()) = user_id)
  with check ((select auth.uid()) = user_id);
create policy "Autoresponders are deletable by their owner"
  on public.form_autoresponders for delete to authenticated
  using ((select auth.uid()) = user_id);

create policy "Retention rules are viewable by their owner"
  on public.form_retention for select to authenticated
  using ((select auth.uid()) = user_id);
create policy "Retention rules can be created by the form owner"
  on public.form_retention for insert to authenticated
  with check (
    (select auth.uid()) = user_id
    and exists (select 1 from public.forms f
                 where f.id = form_id and f.user_id = (select auth.uid()))
  );
create policy "Retention rules are updatable by their owner"
  on public.form_retention for update to authenticated
  using ((select auth.uid()) = user_id)
  with check ((select auth.uid()) = user_id);
create policy "Retention rules are deletable by their owner"
  on public.form_retention for delete to authenticated
  using ((select auth.uid()) = user_id);

revoke all on public.form_autoresponders from anon, authenticated;
grant select, delete on public.form_autoresponders to authenticated;
grant insert (form_id, user_id, enabled, subject, body) on public.form_autoresponders to authenticated;
-- form_id too, for upserts (ON CONFLICT DO UPDATE sets every sent column); the trigger keeps it.
grant update (form_id, enabled, subject, body) on public.form_autoresponders to authenticated;
grant all on public.form_autoresponders to service_role;

revoke all on public.form_retention from anon, authenticated;
grant select, delete on public.form_retention to authenticated;
grant insert (form_id, user_id, mode, days) on public.form_retention to authenticated;
grant update (form_id, mode, days) on public.form_retention to authenticated;
grant all on public.form_retention to service_role;

-- autoresponse_sends: no policy, no grant to clients (only the trigger and the sweep touch it).
revoke all on public.autoresponse_sends from anon, authenticated;
grant all on public.autoresponse_sends to service_role;

revoke execute on function public.prepare_form_setting() from public, anon, authenticated;
revoke execute on function public.queue_autoresponse() from public, anon, authenticated;
revoke execute on function public.autoresponse_fill(text, jsonb, boolean) from public, anon, authenticated;
revoke execute on function public.autoresponse_address_ok(text) from public, anon, authenticated;
revoke execute on function public.sweep_retention(integer) from public, anon, authenticated;
grant execute on function public.sweep_retention(integer) to service_role;

-- ------------------------------------------------------------------------------------------------
-- Schedule (where pg_cron exists: hosted and self-hosted Supabase). The sweep is SQL, so the job
-- calls it directly; the Docker-free local stack calls it through /rest/v1/rpc on a timer.
-- ------------------------------------------------------------------------------------------------
do $outer$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_cron') then
    create extension if not exists pg_cron;
    perform cron.schedule('tinyback-retention-sweep', '* * * * *',
                          'select public.sweep_retention()');
  end if;
end
$outer$;
