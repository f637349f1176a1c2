-- API keys: bearer keys an owner creates in /settings for the read API (the `forms-api` Edge
-- Function). A key is shown once, when it is created; only its SHA-256 is stored. Owners list and
-- revoke their own keys; the function, with the service role, authenticates a key, counts its
-- requests per minute and reads (or, with a read-write key, deletes) the key owner's entries.

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table public.api_keys (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  name text not null,
  -- read_only: list forms and entries; read_write: also delete entries (and nothing else).
  scope text not null,
  -- The first characters of the key ('tb_live_' and 4 more), so the owner can tell keys apart.
  prefix text not null,
  -- Hex SHA-256 of the whole key. A key carries 256 random bits, so a plain (unsalted) hash
  -- cannot be reversed, and the function can find a key by its hash through an index.
  key_hash text not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  -- Set once by revoke_api_key(); a revoked key answers exactly like an unknown one.
  revoked_at timestamptz,
  -- The per-key rate limit: requests counted in the current minute (authenticate_api_key()).
  rate_window_start timestamptz,
  rate_window_hits integer not null default 0,
  -- The same caps as API_KEYS in supabase/functions/_shared/limits.ts.
  constraint api_keys_name_length check (char_length(name) between 1 and 100),
  constraint api_keys_name_trimmed check (name = btrim(name)),
  constraint api_keys_scope check (scope in ('read_only', 'read_write')),
  constraint api_keys_hash_format check (key_hash ~ '^[0-9a-f]{64}$')
);

comment on table public.api_keys is
  'Bearer keys of the forms-api function; only their SHA-256 is stored. Created and revoked through create_api_key() and revoke_api_key().';

-- The function looks every request's key up by its hash.
create unique index api_keys_key_hash_idx on public.api_keys (key_hash);
-- The settings page lists the owner's keys newest first; the policy filters on user_id.
create index api_keys_user_created_idx on public.api_keys (user_id, created_at desc);

-- The API pages through one form's entries oldest first by (created_at, id).
create index entries_form_created_id_idx on public.entries (form_id, created_at, id);

-- ------------------------------------------------------------------------------------------------
-- Functions for the signed-in owner (the settings page)
-- ------------------------------------------------------------------------------------------------

-- Creates a key for the caller and returns it, in plain text, this once.
-- Why in the database rather than in the Edge Function: the plaintext then exists only inside the
-- transaction that stores its hash and in the answer to the signed-in owner who asked for it. The
-- browser calls this with its own session (no service-role path is needed for key management),
-- the function never sees a key being created (so never logs one), and pgcrypto's
-- gen_random_bytes() is a cryptographically secure generator on every Supabase.
create function public.create_api_key(p_name text, p_scope text)
returns jsonb
language plpgsql
security definer set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_name text := btrim(coalesce(p_name, ''));
  v_key text;
  v_row public.api_keys;
begin
  if v_uid is null then
    raise exception 'Sign in to create an API key.' using errcode = '42501';
  end if;
  if char_length(v_name) < 1 or char_length(v_name) > 100 then
    raise exception 'Give the key a name of 1 to 100 characters.' using errcode = '22023';
  end if;
  if p_scope is null or p_scope not in ('read_only', 'read_write') then
    raise exception 'Choose read_only or read_write as the scope.' using errcode = '22023';
  end if;
  -- Serialises one owner's creations, so the cap below holds under concurrent requests.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(v_uid::text, 42));
  if (select count(*) from public.api_keys k where k.user_id = v_uid and k.revoked_at is null)
     >= 20 then
    raise exception 'You have 20 active API keys, the most an account may have. Revoke one first.'
      using errcode = '54000';
  end if;

  v_key := 'tb_live_' || encode(extensions.gen_random_bytes(32), 'hex');
  insert into public.api_keys (user_id, name, scope, prefix, key_hash)
  values (
    v_uid,
    v_name,
    p_scope,
    left(v_key, 12),
    encode(pg_catalog.sha256(pg_catalog.convert_to(v_key, 'UTF8')), 'hex')
  )
  returning * into v_row;

  return jsonb_build_object(
    'id', v_row.id,
    'name', v_row.name,
    'scope', v_row.scope,
    'prefix', v_row.prefix,
    'created_at', v_row.created_at,
    'key', v_key
  );
end;
$$;

-- Revokes one of the caller's keys at once. Revoking a key that is already revoked (or is not the
-- caller's) changes nothing and returns false.
create function public.revoke_api_key(p_id uuid)
returns boolean
language plpgsql
security definer set search_path = ''
as $$
begin
  if auth.uid() is null then
    raise exception 'Sign in to revoke an API key.' using errcode = '42501';
  end if;
  update public.api_keys k
     set revoked_at = now()
   where k.id = p_id and k.user_id = auth.uid() and k.revoked_at is null;
  return found;
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Functions for the forms-api Edge Function (service role only)
-- ------------------------------------------------------------------------------------------------

-- Finds the live key with this hash, counts the request in the key's current minute and records
-- the use. Unknown and revoked keys take the same path and get the same answer:
--   {status: 'unauthorized'} | {status: 'rate_limited', retry_after}
--   | {status: 'ok', key_id, user_id, scope, key_hash}
create function public.authenticate_api_key(p_key_hash text, p_per_minute integer)
returns jsonb
language plpgsql
security definer set search_path = ''
as $$
declare
  v_minute timestamptz := date_trunc('minute', now());
  v_id uuid;
  v_user uuid;
  v_scope text;
  v_hash text;
  v_hits integer;
begin
  -- SET expressions read the row as it was, so a new minute starts the count again at 1.
  update public.api_keys k
     set rate_window_hits = case when k.rate_window_start = v_minute
                                 then k.rate_window_hits + 1 else 1 end,
         rate_window_start = v_minute,
         last_used_at = now()
   where k.key_hash = p_key_hash and k.revoked_at is null
  returning k.id, k.user_id, k.scope, k.key_hash, k.rate_window_hits
       into v_id, v_user, v_scope, v_hash, v_hits;
  if v_id is null then
    return jsonb_build_object('status', 'unauthorized');
  end if;
  if v_hits > p_per_minute then
    return jsonb_build_object(
      'status', 'rate_limited',
      'retry_after', greatest(1, ceil(extract(epoch from (v_minute + interval '1 minute' - now()))))
    );
  end if;
  return jsonb_build_object(
    'status', 'ok', 'key_id', v_id, 'user_id', v_user, 'scope', v_scope, 'key_hash', v_hash
  );
end;
$$;

-- The key owner's forms, newest first.
create function public.api_list_forms(p_user_id uuid)
returns jsonb
language sql
stable
security definer set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', f.id,
           'name', f.name,
           'target_email', f.target_email,
           'allowed_origin', f.allowed_origin,
           'created_at', f.created_at
         ) order by f.created_at desc, f.id desc), '[]'::jsonb)
    from public.forms f
   where f.user_id = p_user_id;
$$;

-- One page of a form's entries, oldest first: created at or after p_since (when given), strictly
-- after the keyset (p_after_created, p_after_id) (when given), at most p_limit + 1 rows so the
-- caller can tell whether more follow. {status: 'form_not_found'} when the form is not the owner's.
create function public.api_list_entries(
  p_user_id uuid,
  p_form_id uuid,
  p_since timestamptz,
  p_after_created timestamptz,
  p_after_id uuid,
  p_limit integer
)
returns jsonb
language plpgsql
stable
security definer set search_path = ''
as $$
declare
  v_rows jsonb;
begin
  if not exists (select 1 from public.forms f where f.id = p_form_id and f.user_id = p_user_id) then
    return jsonb_build_object('status', 'form_not_found');
  end if;
  select coalesce(jsonb_agg(to_jsonb(page) order by page.created_at, page.id), '[]'::jsonb)
    into v_rows
    from (
      select e.id, e.form_id, e.name, e.email, e.message, e.data, e.is_spam, e.read_at,
             e.created_at
        from public.entries e
       where e.form_id = p_form_id
         and e.user_id = p_user_id
         -- No ORs on the parameters: both bounds stay index conditions on
         -- (form_id, created_at, id) in a cached generic plan too; -infinity and the nil uuid
         -- stand for "no bound".
         and e.created_at >= coalesce(p_since, '-infinity'::timestamptz)
         and (e.created_at, e.id) > (coalesce(p_after_created, '-infinity'::timestamptz),
                                     coalesce(p_after_id, '00000000-0000-0000-0000-000000000000'::uuid))
       order by e.created_at, e.id
       limit greatest(1, least(p_limit, 1000)) + 1
    ) page;
  return jsonb_build_object('status', 'ok', 'entries', v_rows);
end;
$$;

-- Deletes one entry of one of the owner's forms:
-- {status: 'deleted'} | {status: 'form_not_found'} | {status: 'entry_not_found'}.
create function public.api_delete_entry(p_user_id uuid, p_form_id uuid, p_entry_id uuid)
returns jsonb
language plpgsql
security definer set search_path = ''
as $$
begin
  if not exists (select 1 from public.forms f where f.id = p_form_id and f.user_id = p_user_id) then
    return jsonb_build_object('status', 'form_not_found');
  end if;
  delete from public.entries e
   where e.id = p_entry_id and e.form_id = p_form_id and e.user_id = p_user_id;
  if not found then
    return jsonb_build_object('status', 'entry_not_found');
  end if;
  return jsonb_build_object('status', 'deleted');
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
-- Owners read their own keys (without the hash: see the grants). No insert, update or delete
-- policy: keys are created and revoked only through the functions above.
alter table public.api_keys enable row level security;

create policy "API keys are viewable by their owner"
  on public.api_keys for select
  to authenticated
  using ((select auth.uid()) = user_id);

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
-- The hash and the rate-limit counters never reach a browser, not even the owner's.
revoke all on table public.api_keys from anon, authenticated;
grant select (id, user_id, name, scope, prefix, created_at, last_used_at, revoked_at)
  on table public.api_keys to authenticated;
grant all on table public.api_keys to service_role;

revoke execute on function public.create_api_key(text, text) from public, anon;
revoke execute on function public.revoke_api_key(uuid) from public, anon;
grant execute on function public.create_api_key(text, text) to authenticated;
grant execute on function public.revoke_api_key(uuid) to authenticated;

revoke execute on function public.authenticate_api_key(text, integer) from public, anon, authenticated;
revoke execute on function public.api_list_forms(uuid) from public, anon, authenticated;
revoke execute on function public.api_list_entries(uuid, uuid, timestamptz, timestamptz, uuid, integer)
  from public, anon, authenticated;
revoke execute on function public.api_delete_entry(uuid, uuid, uuid) from public, anon, authenticated;
grant execute on function public.authenticate_api_key(text, integer) to service_role;
grant execute on function public.api_list_forms(uuid) to service_role;
grant execute on function public.api_list_entries(uuid, uuid, timestamptz, timestamptz, uuid, integer)
  to service_role;
grant execute on function public.api_delete_entry(uuid, uuid, uuid) to service_role;
