-- Custom fields — every field a visitor sent besides name, email and message, kept in
-- entries.data (a string, or a list of strings for a name sent more than once) — in the order they
-- were sent, and found by the inbox search.
--
-- Order: jsonb keeps an object's keys in an order of its own (shorter keys first), never the order
-- of the post, and the endpoint's RPC argument is already jsonb. So the order is stored beside the
-- data, in entries.field_order: every key of data exactly once, in the order the endpoint received
-- them. accept_post() takes it as p_field_order and hands it to the insert through a setting
-- local to the transaction that names the entry it is for (accept_submission() is unchanged);
-- a BEFORE INSERT trigger reads it and completes it from data, so any writer gets a full order.
-- Entries stored before this have no order (null): their keys are shown in jsonb's order, as before.
-- The read API's and the webhooks' bodies name their columns, so their shape does not change.
--
-- Search: search_text (the inbox search target, kept by a trigger) now holds the custom fields'
-- values too, bounded: the first 500 characters of each value, 4000 characters of them in all.
-- Existing entries with custom fields are brought up to date in batches.

alter table public.entries add column field_order text[];

comment on column public.entries.field_order is
  'The keys of data in the order the visitor sent them (each once); null for entries stored before it was kept.';

-- ------------------------------------------------------------------------------------------------
-- The order
-- ------------------------------------------------------------------------------------------------

-- Every key of p_data exactly once: those named in p_wanted first, in its order (names that are
-- not keys, and repeats, are dropped), then the rest in jsonb's order.
create function private.entry_field_order(p_data jsonb, p_wanted text[])
returns text[]
language sql
immutable
set search_path = ''
as $$
  with data as (
    select case when jsonb_typeof(p_data) = 'object' then p_data else '{}'::jsonb end as obj
  ), keys as (
    select w.k, w.n
      from data, unnest(coalesce(p_wanted, '{}'::text[])) with ordinality as w(k, n)
     where data.obj ? w.k
    union all
    select j.k, 1000000 + j.n
      from data, jsonb_object_keys(data.obj) with ordinality as j(k, n)
  )
  select coalesce(array_agg(k order by first_n), '{}'::text[])
    from (select k, min(n) as first_n from keys group by k) ordered;
$$;

-- The order the endpoint sent for this very entry (accept_post's transaction-local setting), else
-- the one the writer gave; completed from data either way.
create function private.set_entry_field_order()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sent jsonb := nullif(current_setting('tinyback.sent_field_order', true), '')::jsonb;
  v_wanted text[] := new.field_order;
begin
  if v_sent is not null and v_sent ->> 'entry_id' = new.id::text then
    v_wanted := array(select jsonb_array_elements_text(v_sent -> 'fields'));
  end if;
  new.field_order := private.entry_field_order(new.data, v_wanted);
  return new;
end;
$$;

create trigger entries_set_field_order
  before insert or update of data, field_order on public.entries
  for each row execute function private.set_entry_field_order();

-- ------------------------------------------------------------------------------------------------
-- The endpoint's call, with the order
-- ------------------------------------------------------------------------------------------------

-- As 20261127100200's, plus p_field_order: the names of the post's fields in the order received
-- (all of them; only the keys of p_data are kept).
drop function public.accept_post(jsonb, uuid, uuid, text, text, text, text, jsonb, boolean, jsonb, integer, integer, integer, integer, integer, text, boolean);

create function public.accept_post(
  p_seen jsonb,
  p_entry_id uuid,
  p_form_id uuid,
  p_ip_hash text,
  p_name text,
  p_email text,
  p_message text,
  p_data jsonb,
  p_is_spam boolean,
  p_notification jsonb,
  p_per_minute integer,
  p_per_day integer,
  p_form_per_minute integer,
  p_account_per_hour integer,
  p_account_per_day integer,
  p_idempotency_key text default null,
  p_client_counted boolean default false,
  p_field_order text[] default null
)
returns jsonb
language plpgsql
security definer set search_path = ''
as $$
declare
  v_form jsonb;
  v_result jsonb;
begin
  select jsonb_build_object(
           'id', f.id,
           'name', f.name,
           'target_email', f.target_email,
           'allowed_origin', f.allowed_origin,
           'redirect_url', f.redirect_url,
           'captcha_provider', f.captcha_provider
         )
    into v_form
    from public.forms f where f.id = p_form_id;
  if v_form is null then
    return jsonb_build_object('status', 'form_not_found');
  end if;
  if p_seen is distinct from v_form then
    return jsonb_build_object('status', 'form_changed', 'form', v_form);
  end if;
  -- Read by the entry's BEFORE INSERT trigger (private.set_entry_field_order), for this entry only.
  perform set_config(
    'tinyback.sent_field_order',
    case when p_field_order is null then ''
         else jsonb_build_object('entry_id', p_entry_id, 'fields', to_jsonb(p_field_order))::text
    end,
    true
  );
  v_result := public.accept_submission(
    p_entry_id, p_form_id, p_ip_hash, p_name, p_email, p_message, p_data, p_is_spam,
    p_notification, p_per_minute, p_per_day, p_form_per_minute, p_account_per_hour,
    p_account_per_day, p_idempotency_key, p_client_counted
  );
  perform set_config('tinyback.sent_field_order', '', true);
  if v_result ->> 'status' is distinct from 'accepted' or v_result ? 'repeated' then
    return v_result;
  end if;
  return v_result || jsonb_build_object(
    'webhooks_queued',
    exists (select 1 from public.webhook_deliveries d where d.entry_id = p_entry_id),
    'autoresponse_id', private.autoresponse_of(p_entry_id)
  );
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- The search
-- ------------------------------------------------------------------------------------------------

-- Recomputed on every write, whatever the writer sent (owners cannot write it: their UPDATE grant
-- covers read_at and is_spam only). Runs as the writer, so it calls nothing in `private`.
create or replace function public.set_entry_search_text()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_fields text;
begin
  -- Each custom value (each item of a list) cut at 500 characters, 4000 characters in all.
  select left(string_agg(left(v.val, 500), ' ' order by e.n, v.i), 4000)
    into v_fields
    from jsonb_each(case when jsonb_typeof(new.data) = 'object' then new.data else '{}'::jsonb end)
           with ordinality as e(key, value, n)
    cross join lateral (
      select a.val, a.i
        from jsonb_array_elements_text(
               case when jsonb_typeof(e.value) = 'array' then e.value else '[]'::jsonb end
             ) with ordinality as a(val, i)
      union all
      select e.value #>> '{}', 0 where jsonb_typeof(e.value) <> 'array'
    ) v;
  -- concat_ws leaves out a missing part (no custom fields: no trailing space).
  new.search_text := lower(
    concat_ws(' ', coalesce(new.name, ''), coalesce(new.email, ''), coalesce(new.message, ''),
              v_fields)
  );
  return new;
end;
$$;

comment on column public.entries.search_text is
  'Name, e-mail, message and the custom fields'' values (bounded), lower-cased by a trigger: the inbox search target.';

-- Existing entries with custom fields, in batches of 5000 by id: the update recomputes search_text.
do $$
declare
  v_last uuid := '00000000-0000-0000-0000-000000000000';
  v_ids uuid[];
begin
  loop
    select array_agg(id order by id) into v_ids
      from (select e.id from public.entries e
             where e.id > v_last and e.data <> '{}'::jsonb
             order by e.id
             limit 5000) batch;
    exit when v_ids is null;
    update public.entries set search_text = null where id = any (v_ids);
    v_last := v_ids[array_length(v_ids, 1)];
  end loop;
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke execute on function private.entry_field_order(jsonb, text[])
  from public, anon, authenticated, service_role;
revoke execute on function private.set_entry_field_order()
  from public, anon, authenticated, service_role;
revoke execute on function public.accept_post(jsonb, uuid, uuid, text, text, text, text, jsonb, boolean, jsonb, integer, integer, integer, integer, integer, text, boolean, text[])
  from public, anon, authenticated;
grant execute on function public.accept_post(jsonb, uuid, uuid, text, text, text, text, jsonb, boolean, jsonb, integer, integer, integer, integer, integer, text, boolean, text[])
  to service_role;
