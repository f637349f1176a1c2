-- API keys that cannot be multiplied: the read API's rate limit is counted per account as well as
-- per key (three keys no longer make three allowances), creating keys is capped per day in the
-- action ledger (20261127100000_action_ledger.sql), so creating and revoking keys in a loop wins
-- nothing, and revoked keys are purged after 30 days instead of piling up. The 21st active key
-- is refused with 409 (PT409), no longer with a 500.

-- ------------------------------------------------------------------------------------------------
-- Per-account request counter (no foreign key: revoking keys or deleting the account resets nothing
-- that matters, and the row is one per account)
-- ------------------------------------------------------------------------------------------------
create table private.api_request_counts (
  user_id uuid primary key,
  window_start timestamptz not null,
  hits integer not null default 0
);

comment on table private.api_request_counts is
  'Read-API requests per account in the current minute, across all its keys (authenticate_api_key()).';

revoke all on table private.api_request_counts from public, anon, authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- Creating a key
-- ------------------------------------------------------------------------------------------------
create or replace function public.create_api_key(p_name text, p_scope text)
returns jsonb
language plpgsql
security definer set search_path = ''
as $$
declare
  c_active constant integer := 20;
  c_created_per_day constant integer := 20;
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
  -- Serialises one owner's creations, so the caps below hold under concurrent requests.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(v_uid::text, 42));
  if (select count(*) from public.api_keys k where k.user_id = v_uid and k.revoked_at is null)
     >= c_active then
    raise exception 'You have 20 active API keys, the most an account may have. Revoke one first.'
      using errcode = 'PT409', hint = 'api_key_limit';
  end if;
  if private.ledger_count('api_key_created', now() - interval '1 day', c_created_per_day, v_uid)
     >= c_created_per_day then
    raise exception 'You have created 20 API keys today, the most an account may. Try again tomorrow.'
      using errcode = 'PT429', hint = 'api_key_rate';
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
  insert into private.action_ledger (kind, user_id) values ('api_key_created', v_uid);

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

-- ------------------------------------------------------------------------------------------------
-- Authenticating a request: per key, then per account
-- ------------------------------------------------------------------------------------------------
drop function public.authenticate_api_key(text, integer);

-- {status: 'unauthorized'} | {status: 'rate_limited', retry_after}
-- | {status: 'ok', key_id, user_id, scope, key_hash}. p_per_account_per_minute null: no account cap.
create function public.authenticate_api_key(
  p_key_hash text,
  p_per_minute integer,
  p_per_account_per_minute integer default null
)
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
  v_account_hits integer;
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
  insert into private.api_request_counts as c (user_id, window_start, hits)
    values (v_user, v_minute, 1)
    on conflict (user_id) do update
      set hits = case when c.window_start = excluded.window_start then c.hits + 1 else 1 end,
          window_start = excluded.window_start
    returning c.hits into v_account_hits;
  if v_hits > p_per_minute or v_account_hits > p_per_account_per_minute then
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

revoke execute on function public.authenticate_api_key(text, integer, integer)
  from public, anon, authenticated;
grant execute on function public.authenticate_api_key(text, integer, integer) to service_role;

-- ------------------------------------------------------------------------------------------------
-- Purging revoked keys (called by the scheduled sweep): a revoked key answers like an unknown one
-- at once; its row is kept 30 days, then deleted.
-- ------------------------------------------------------------------------------------------------
create function private.purge_revoked_api_keys()
returns integer
language plpgsql
set search_path = ''
as $$
declare
  v_count integer;
begin
  delete from public.api_keys k where k.revoked_at < now() - interval '30 days';
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

revoke execute on function private.purge_revoked_api_keys() from public, anon, authenticated, service_role;
