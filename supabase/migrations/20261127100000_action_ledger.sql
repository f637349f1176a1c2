-- The action ledger: where the caps on outward mail, webhook traffic and account-made objects are
-- counted, so that no deletion can reset them.
--
-- Before, each cap counted rows that belonged to what it capped (autoresponse rows cascaded with
-- their form, confirmation requests with their account, test events with their webhook), so
-- "create → use → delete" won a fresh allowance every time. The ledger references nothing and
-- nothing references it: deleting a message, a form, a webhook, a key or a whole account removes
-- no row. Rows are purged by age only (purge_action_ledger(), from the scheduled sweep), once
-- older than every window a cap looks back over.
--
-- It lives in `private`, a schema the Data API does not expose and no client role may use: only
-- the definer functions that enforce the caps read and write it.

create schema if not exists private;
comment on schema private is
  'Internals of tinyback: counters, ledgers and tokens. Not exposed by the Data API; only definer functions use it.';
revoke all on schema private from public, anon, authenticated;
-- Functions are executable by everyone unless said otherwise; here nobody but the owner may.
alter default privileges in schema private revoke execute on functions from public;

-- ------------------------------------------------------------------------------------------------
-- The ledger
-- ------------------------------------------------------------------------------------------------
create table private.action_ledger (
  id bigint generated always as identity primary key,
  -- What was done (each kind is one capped action; the caps are in the functions that count it).
  kind text not null,
  -- The account that did it or that it was done for. No foreign key: the row outlives the account.
  user_id uuid not null,
  -- Whom it reached: the SHA-256 (hex) of a lower-cased e-mail address, or a webhook's host.
  target text,
  -- The form it came through, if any (no foreign key: it outlives the form).
  form_id uuid,
  -- The visitor's network as the form endpoint counts it (a salted hash), if a visitor caused it.
  client text,
  created_at timestamptz not null default now(),
  constraint action_ledger_kind check (kind in (
    'autoresponse', 'target_confirmation', 'webhook_manual_send', 'webhook_attempt',
    'api_key_created'
  )),
  constraint action_ledger_target_length check (char_length(target) <= 300),
  constraint action_ledger_client_length check (char_length(client) <= 200)
);

comment on table private.action_ledger is
  'One row per capped action (what, account, target, form, visitor network, when); references nothing, purged by age only.';

create index action_ledger_user_idx on private.action_ledger (kind, user_id, created_at desc);
create index action_ledger_target_idx on private.action_ledger (kind, target, created_at desc)
  where target is not null;
create index action_ledger_created_idx on private.action_ledger (created_at);

-- How many rows of `p_kind` since `p_since` match, counting at most `p_cap` (a cap never needs
-- more): by account, and when given by target, form and client too.
create function private.ledger_count(
  p_kind text,
  p_since timestamptz,
  p_cap integer,
  p_user uuid,
  p_target text default null,
  p_form uuid default null,
  p_client text default null
)
returns integer
language sql
stable
set search_path = ''
as $$
  select count(*)::integer from (
    select 1 from private.action_ledger l
     where l.kind = p_kind and l.user_id = p_user and l.created_at > p_since
       and (p_target is null or l.target = p_target)
       and (p_form is null or l.form_id = p_form)
       and (p_client is null or l.client = p_client)
     limit greatest(p_cap, 0)
  ) n;
$$;

-- The same across every account: how often `p_target` was reached.
create function private.ledger_count_target(
  p_kind text,
  p_since timestamptz,
  p_cap integer,
  p_target text
)
returns integer
language sql
stable
set search_path = ''
as $$
  select count(*)::integer from (
    select 1 from private.action_ledger l
     where l.kind = p_kind and l.target = p_target and l.created_at > p_since
     limit greatest(p_cap, 0)
  ) n;
$$;

-- Forgets what no cap looks at any more: webhook attempts after an hour (their cap looks back a
-- minute), everything else after two days (the longest window is a day).
create function private.purge_action_ledger()
returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_attempts integer;
  v_rest integer;
begin
  delete from private.action_ledger l
   where l.kind = 'webhook_attempt' and l.created_at < now() - interval '1 hour';
  get diagnostics v_attempts = row_count;
  delete from private.action_ledger l where l.created_at < now() - interval '2 days';
  get diagnostics v_rest = row_count;
  return v_attempts + v_rest;
end;
$$;

-- The SHA-256 (hex) of an address as the ledger keys it: trimmed and lower-cased.
create function private.address_key(p_address text)
returns text
language sql
immutable
set search_path = ''
as $$
  select encode(sha256(convert_to(lower(btrim(coalesce(p_address, ''))), 'UTF8')), 'hex');
$$;

-- ------------------------------------------------------------------------------------------------
-- Text that may go to a stranger
-- ------------------------------------------------------------------------------------------------

-- A name someone else wrote, made safe to show in mail to an address nobody has confirmed: one
-- line, no control or bidirectional-override characters, nothing that reads as a link or an
-- address (URLs, host names, `@`), at most p_max characters. "Ada Lovelace" stays as it is;
-- "Verify at https://evil.example" becomes "Verify at".
create function private.mail_label(p_value text, p_max integer)
returns text
language sql
immutable
set search_path = ''
as $$
  select left(btrim(regexp_replace(
    regexp_replace(
      regexp_replace(
        coalesce(p_value, ''),
        '[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]+', ' ', 'g'),
      -- scheme:anything, www.anything, and anything.tld (full-width and ideographic dots too)
      '([a-z][a-z0-9+.-]*:\S+|www[.。．｡]\S*|\S*[a-z0-9-][.。．｡][a-z]{2,}\S*)', ' ', 'gi'),
    '[@＠\s]+', ' ', 'g')), greatest(p_max, 0));
$$;

-- ------------------------------------------------------------------------------------------------
-- Form creation: capped per account and hour (and day), counted on the ids that never go away
-- ------------------------------------------------------------------------------------------------

-- used_form_ids (20261124120000_form_ids_never_reused.sql) keeps every form id forever, so it
-- also says which account made how many forms when: deleting forms never lowers the count.
alter table public.used_form_ids add column user_id uuid;

comment on column public.used_form_ids.user_id is
  'The account that created the form (null for forms made before this was recorded); counts form creations.';

create index used_form_ids_user_idx on public.used_form_ids (user_id, first_used_at desc)
  where user_id is not null;

update public.used_form_ids u set user_id = f.user_id from public.forms f where f.id = u.id;

-- Records a new form's id and its creator, refusing an id used before; a signed-in client (not
-- the service role) may create at most 20 forms an hour and 100 a day.
create or replace function public.register_form_id()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
declare
  c_per_hour constant integer := 20;
  c_per_day constant integer := 100;
  v_uid uuid := (select auth.uid());
begin
  if tg_op = 'UPDATE' and new.id = old.id then
    return new;
  end if;
  if tg_op = 'INSERT' and v_uid is not null then
    -- Counted for the caller, whatever user_id the row claims (RLS refuses another's afterwards).
    perform pg_advisory_xact_lock(hashtextextended('tinyback.form_create:' || v_uid::text, 0));
    if (select count(*) from (select 1 from public.used_form_ids u
          where u.user_id = v_uid and u.first_used_at > now() - interval '1 hour'
          limit c_per_hour) h) >= c_per_hour
       or (select count(*) from (select 1 from public.used_form_ids u
          where u.user_id = v_uid and u.first_used_at > now() - interval '1 day'
          limit c_per_day) d) >= c_per_day then
      raise exception 'You have created too many forms recently. Try again in an hour.'
        using errcode = 'PT429', hint = 'form_create_limit',
              detail = format('At most %s forms an hour and %s a day per account.', c_per_hour, c_per_day);
    end if;
  end if;
  insert into public.used_form_ids (id, user_id) values (new.id, coalesce(v_uid, new.user_id))
    on conflict (id) do nothing;
  if not found then
    raise exception 'This form id was used before.'
      using errcode = '23505',
            detail = 'Form ids are never reused, so a deleted form''s published HTML cannot reach a new owner.',
            hint = 'Create the form with a new random id.';
  end if;
  return new;
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Grants: nobody but the database owner (the definer functions) touches `private`.
-- ------------------------------------------------------------------------------------------------
revoke all on table private.action_ledger from public, anon, authenticated, service_role;
revoke execute on all functions in schema private from public, anon, authenticated, service_role;
