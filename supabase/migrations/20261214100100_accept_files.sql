-- A post's files commit with its entry: accept_post() takes them (p_files) and stores their rows
-- (private.store_entry_files), clearing the entry's pending-uploads record, which
-- begin_uploads() writes before the first object is (supabase/schemas/16-uploads.sql).

drop function if exists "public"."accept_post"(p_seen jsonb, p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[]);

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION private.store_entry_files(p_entry_id uuid, p_files jsonb)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_count integer;
begin
  if jsonb_typeof(p_files) is distinct from 'array' or jsonb_array_length(p_files) > 10 then
    raise exception 'p_files must be an array of at most 10 files' using errcode = 'check_violation';
  end if;
  -- The owner and form come from the entry; the table's checks hold the key under them.
  insert into public.entry_files
      (entry_id, user_id, form_id, "position", object_key, name, kind, mime_type, size)
    select e.id, e.user_id, e.form_id, f."position", f.object_key, f.name, f.kind, f.mime_type,
           f.size
      from public.entries e,
           jsonb_to_recordset(p_files)
             as f("position" smallint, object_key text, name text, kind text, mime_type text,
                  size bigint)
     where e.id = p_entry_id;
  get diagnostics v_count = row_count;
  delete from private.pending_uploads p where p.entry_id = p_entry_id;
  return v_count;
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
  v_result := private.accept_entry(
    p_entry_id, p_form_id, p_ip_hash, p_name, p_email, p_message, p_data, p_is_spam,
    p_notification, p_per_minute, p_per_day, p_form_per_minute, p_account_per_hour,
    p_account_per_day, p_idempotency_key, p_client_counted, p_field_order
  );
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

CREATE OR REPLACE FUNCTION public.begin_uploads(p_entry_id uuid, p_form_id uuid)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  -- Before the first object of an entry is written: what the sweep cleans if the entry never
  -- commits.
  insert into private.pending_uploads (entry_id, user_id, form_id)
    select p_entry_id, f.user_id, f.id from public.forms f where f.id = p_form_id
    on conflict (entry_id) do nothing;
  if not found and not exists (select 1 from private.pending_uploads p where p.entry_id = p_entry_id) then
    raise exception 'form % does not exist', p_form_id using errcode = 'foreign_key_violation';
  end if;
end;
$function$
;

alter function private.store_entry_files(p_entry_id uuid, p_files jsonb) set search_path to '';
alter function public.accept_post(p_seen jsonb, p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[], p_files jsonb) set search_path to '';
alter function public.begin_uploads(p_entry_id uuid, p_form_id uuid) set search_path to '';
grant execute on function private.store_entry_files(p_entry_id uuid, p_files jsonb) to postgres;
grant execute on function public.accept_post(p_seen jsonb, p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[], p_files jsonb) to postgres;
grant execute on function public.accept_post(p_seen jsonb, p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[], p_files jsonb) to service_role;
grant execute on function public.begin_uploads(p_entry_id uuid, p_form_id uuid) to postgres;
grant execute on function public.begin_uploads(p_entry_id uuid, p_form_id uuid) to service_role;
revoke all on function private.store_entry_files(p_entry_id uuid, p_files jsonb) from public, anon, authenticated, service_role;
revoke all on function public.begin_uploads(p_entry_id uuid, p_form_id uuid) from public, anon, authenticated;
revoke all on function public.accept_post(p_seen jsonb, p_entry_id uuid, p_form_id uuid, p_ip_hash text, p_name text, p_email text, p_message text, p_data jsonb, p_is_spam boolean, p_notification jsonb, p_per_minute integer, p_per_day integer, p_form_per_minute integer, p_account_per_hour integer, p_account_per_day integer, p_idempotency_key text, p_client_counted boolean, p_field_order text[], p_files jsonb) from public, anon, authenticated;
