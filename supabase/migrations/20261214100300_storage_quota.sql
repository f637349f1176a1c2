-- Each account's storage quota for submission files (a deployment setting, private.upload_settings;
-- 1 GiB until the operator changes it): the bytes an account keeps are counted in
-- private.storage_usage, taken by accept_post() once the entry is in (a post that does not fit is
-- taken back out) and given back when files are deleted; begin_uploads() answers the owner and
-- what is left, so a post that cannot fit stops early; storage_use() shows the owner their use.
-- accept_post() refuses files for a form whose uploads were turned off since the endpoint read it.

create table "private"."storage_usage" (
    "user_id" uuid not null,
    "bytes" bigint not null default 0
      );


alter table "private"."storage_usage" enable row level security;


  create table "private"."upload_settings" (
    "id" boolean not null default true,
    "storage_quota_bytes" bigint default 1073741824
      );


alter table "private"."upload_settings" enable row level security;

CREATE UNIQUE INDEX storage_usage_pkey ON private.storage_usage USING btree (user_id);

CREATE UNIQUE INDEX upload_settings_pkey ON private.upload_settings USING btree (id);

alter table "private"."storage_usage" add constraint "storage_usage_pkey" PRIMARY KEY using index "storage_usage_pkey";

alter table "private"."upload_settings" add constraint "upload_settings_pkey" PRIMARY KEY using index "upload_settings_pkey";

alter table "private"."storage_usage" add constraint "storage_usage_bytes" CHECK ((bytes >= 0)) not valid;

alter table "private"."storage_usage" validate constraint "storage_usage_bytes";

alter table "private"."upload_settings" add constraint "upload_settings_id_check" CHECK (id) not valid;

alter table "private"."upload_settings" validate constraint "upload_settings_id_check";

alter table "private"."upload_settings" add constraint "upload_settings_storage_quota_bytes" CHECK (((storage_quota_bytes IS NULL) OR (storage_quota_bytes >= 0))) not valid;

alter table "private"."upload_settings" validate constraint "upload_settings_storage_quota_bytes";

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.files_bytes(p_files jsonb)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select coalesce(sum((f.value ->> 'size')::bigint), 0) from jsonb_array_elements(p_files) f;
$function$
;

CREATE OR REPLACE FUNCTION private.reserve_storage(p_user uuid, p_bytes bigint)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_quota bigint;
begin
  select s.storage_quota_bytes into v_quota from private.upload_settings s where s.id;
  insert into private.storage_usage (user_id) values (p_user) on conflict do nothing;
  -- One statement under the row's lock: racing posts cannot together pass the quota.
  update private.storage_usage u
     set bytes = u.bytes + p_bytes
   where u.user_id = p_user and (v_quota is null or u.bytes + p_bytes <= v_quota);
  return found;
end;
$function$
;

CREATE OR REPLACE FUNCTION private.storage_left(p_user uuid)
 RETURNS bigint
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select greatest(0, s.storage_quota_bytes - coalesce(
           (select u.bytes from private.storage_usage u where u.user_id = p_user), 0))
    from private.upload_settings s
   where s.id and s.storage_quota_bytes is not null;
$function$
;

CREATE OR REPLACE FUNCTION public.storage_use()
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  -- The signed-in owner's submission files: bytes kept, and the deployment's quota (null: none).
  select jsonb_build_object(
    'used_bytes', coalesce((select u.bytes from private.storage_usage u where u.user_id = (select auth.uid())), 0),
    'quota_bytes', (select s.storage_quota_bytes from private.upload_settings s where s.id)
  )
  where (select auth.uid()) is not null;
$function$
;

CREATE OR REPLACE FUNCTION private.remember_deleted_files()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  insert into private.deleted_files (object_key)
    select g.object_key from gone g
    on conflict do nothing;
  -- The space is the owner's again at once; the objects go with the scheduled pass.
  update private.storage_usage u
     set bytes = greatest(0, u.bytes - g.bytes)
    from (select g.user_id, sum(g.size) as bytes from gone g group by g.user_id) g
   where u.user_id = g.user_id;
  return null;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.accept_post(p_seen jsonb, p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text DEFAULT NULL::text, p_client_counted boolean DEFAULT false, p_field_order text[] DEFAULT NULL::text[], p_files jsonb DEFAULT NULL::jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_form jsonb;
  v_result jsonb;
  v_owner uuid;
  v_file_bytes bigint;
begin
  select f.user_id, jsonb_build_object(
           'id', f.id,
           'name', f.name,
           'target_email', f.target_email,
           'allowed_origin', f.allowed_origin,
           'redirect_url', f.redirect_url,
           'captcha_provider', f.captcha_provider
         )
    into v_owner, v_form
    from public.forms f where f.id = p_form_id;
  if v_form is null then
    return jsonb_build_object('status', 'form_not_found');
  end if;
  if p_seen is distinct from v_form then
    return jsonb_build_object('status', 'form_changed', 'form', v_form);
  end if;
  if jsonb_typeof(p_files) = 'array' and jsonb_array_length(p_files) > 0 then
    v_file_bytes := private.files_bytes(p_files);
  end if;
  if v_file_bytes is null then
    v_result := private.accept_entry(
      p_entry_id, p_form_id, p_ip_hash, p_name, p_email, p_message, p_data, p_is_spam,
      p_notification, p_per_minute, p_per_day, p_form_per_minute, p_account_per_hour,
      p_account_per_day, p_idempotency_key, p_client_counted, p_field_order
    );
  else
    -- A post with files, in a block of its own: judged once the entry is in (a repeat is answered
    -- as the first post whatever else holds), and a refusal takes the entry back out.
    begin
      v_result := private.accept_entry(
        p_entry_id, p_form_id, p_ip_hash, p_name, p_email, p_message, p_data, p_is_spam,
        p_notification, p_per_minute, p_per_day, p_form_per_minute, p_account_per_hour,
        p_account_per_day, p_idempotency_key, p_client_counted, p_field_order
      );
      if v_result ->> 'status' = 'accepted' and not v_result ? 'repeated' then
        -- Read under a minute-old copy of the form: the owner may have turned uploads off since.
        if not exists (select 1 from public.form_uploads u where u.form_id = p_form_id and u.enabled) then
          raise exception 'uploads are off' using errcode = 'TBUP0';
        end if;
        -- Under the owner's usage row lock: racing posts cannot together pass the quota.
        if not private.reserve_storage(v_owner, v_file_bytes) then
          raise exception 'storage full' using errcode = 'TBUP1';
        end if;
      end if;
    exception
      when sqlstate 'TBUP0' then return jsonb_build_object('status', 'uploads_off');
      when sqlstate 'TBUP1' then return jsonb_build_object('status', 'storage_full');
    end;
  end if;
  if v_result ->> 'status' is distinct from 'accepted' or v_result ? 'repeated' then
    return v_result;
  end if;
  -- The post's files, already in Storage: their rows commit with the entry (or not at all).
  if p_files is not null then
    perform private.store_entry_files(p_entry_id, p_files);
  end if;
  return v_result || jsonb_build_object(
    'webhooks_queued',
    exists (select 1 from public.webhook_deliveries d where d.entry_id = p_entry_id),
    'autoresponse_id', private.autoresponse_of(p_entry_id)
  );
end;
$function$
;

-- begin_uploads() now answers the owner and their storage left: a new return type.
drop function public.begin_uploads(p_entry_id uuid, p_form_id uuid);

CREATE OR REPLACE FUNCTION public.begin_uploads(p_entry_id uuid, p_form_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_owner uuid;
begin
  select f.user_id into v_owner from public.forms f where f.id = p_form_id;
  if v_owner is null then
    raise exception 'form % does not exist', p_form_id using errcode = 'foreign_key_violation';
  end if;
  -- Before the first object of an entry is written: what the sweep cleans if the entry never
  -- commits.
  insert into private.pending_uploads (entry_id, user_id, form_id)
    values (p_entry_id, v_owner, p_form_id)
    on conflict (entry_id) do nothing;
  -- The owner (whose folder the objects go in) and their storage left (null: no quota), so a
  -- post that cannot fit stops early; the reservation when the entry is stored is what holds.
  return jsonb_build_object('user_id', v_owner, 'storage_left', private.storage_left(v_owner));
end;
$function$
;

alter function private.files_bytes(p_files jsonb) set search_path to '';
alter function private.reserve_storage(p_user uuid, p_bytes bigint) set search_path to '';
alter function private.storage_left(p_user uuid) set search_path to '';
alter function public.storage_use() set search_path to '';
comment on table private.storage_usage is 'Bytes of submission files each account keeps (taken when an entry''s files are stored, given back when they are deleted).';
comment on table private.upload_settings is 'One row: the deployment''s storage quota per account for submission files, in bytes (null: none).';
grant execute on function private.files_bytes(p_files jsonb) to postgres;
grant execute on function private.reserve_storage(p_user uuid, p_bytes bigint) to postgres;
grant execute on function private.storage_left(p_user uuid) to postgres;
grant execute on function public.storage_use() to authenticated;
grant execute on function public.storage_use() to postgres;
alter function public.begin_uploads(p_entry_id uuid, p_form_id uuid) set search_path to '';
revoke all on function public.begin_uploads(p_entry_id uuid, p_form_id uuid) from public, anon, authenticated;
grant execute on function public.begin_uploads(p_entry_id uuid, p_form_id uuid) to postgres;
grant execute on function public.begin_uploads(p_entry_id uuid, p_form_id uuid) to service_role;
revoke all on function private.files_bytes(p_files jsonb) from public, anon, authenticated, service_role;
revoke all on function private.reserve_storage(p_user uuid, p_bytes bigint) from public, anon, authenticated, service_role;
revoke all on function private.storage_left(p_user uuid) from public, anon, authenticated, service_role;
revoke all on function public.storage_use() from public, anon, service_role;
revoke all on table private.upload_settings from public, anon, authenticated, service_role;
revoke all on table private.storage_usage from public, anon, authenticated, service_role;

insert into private.upload_settings (id) values (true) on conflict (id) do nothing;
