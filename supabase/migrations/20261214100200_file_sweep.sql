-- The file sweep (supabase/schemas/16-uploads.sql, its last section; docs/UPLOADS.md): the
-- service-role functions the scheduled pass reads a batch of deleted files' objects and of old
-- pending uploads with, and reports them done once Storage removed their objects.

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION public.claim_deleted_files(p_limit integer DEFAULT 500)
 RETURNS SETOF text
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  -- Oldest first; at most 1 000, what one Storage remove call takes.
  select d.object_key from private.deleted_files d
   order by d.deleted_at, d.object_key
   limit least(greatest(p_limit, 0), 1000);
$function$
;

CREATE OR REPLACE FUNCTION public.claim_pending_uploads(p_older_than_seconds integer DEFAULT 3600, p_limit integer DEFAULT 50)
 RETURNS TABLE(entry_id uuid, user_id uuid, form_id uuid, committed boolean)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  -- Entries whose post began writing objects long ago and never cleared its record. One whose
  -- entry exists did commit (entry_files rows exist only with their entry): its objects are never
  -- removed here, whatever left its record behind.
  select p.entry_id, p.user_id, p.form_id,
         exists (select 1 from public.entries e where e.id = p.entry_id)
    from private.pending_uploads p
   where p.created_at < now() - make_interval(secs => greatest(p_older_than_seconds, 0))
   order by p.created_at, p.entry_id
   limit least(greatest(p_limit, 0), 1000);
$function$
;

CREATE OR REPLACE FUNCTION public.finish_deleted_files(p_keys text[])
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_count integer;
begin
  -- Called once Storage has confirmed these objects are gone.
  delete from private.deleted_files d where d.object_key = any(p_keys);
  get diagnostics v_count = row_count;
  return v_count;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.finish_pending_uploads(p_entry_ids uuid[])
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_count integer;
begin
  -- Called once the entries' objects are gone (or, for a committed entry, kept on purpose).
  delete from private.pending_uploads p where p.entry_id = any(p_entry_ids);
  get diagnostics v_count = row_count;
  return v_count;
end;
$function$
;

alter function public.claim_deleted_files(p_limit integer) set search_path to '';
alter function public.claim_pending_uploads(p_older_than_seconds integer, p_limit integer) set search_path to '';
alter function public.finish_deleted_files(p_keys text[]) set search_path to '';
alter function public.finish_pending_uploads(p_entry_ids uuid[]) set search_path to '';
grant execute on function public.claim_deleted_files(p_limit integer) to postgres;
grant execute on function public.claim_deleted_files(p_limit integer) to service_role;
grant execute on function public.claim_pending_uploads(p_older_than_seconds integer, p_limit integer) to postgres;
grant execute on function public.claim_pending_uploads(p_older_than_seconds integer, p_limit integer) to service_role;
grant execute on function public.finish_deleted_files(p_keys text[]) to postgres;
grant execute on function public.finish_deleted_files(p_keys text[]) to service_role;
grant execute on function public.finish_pending_uploads(p_entry_ids uuid[]) to postgres;
grant execute on function public.finish_pending_uploads(p_entry_ids uuid[]) to service_role;
revoke all on function public.claim_deleted_files(p_limit integer) from public, anon, authenticated;
revoke all on function public.claim_pending_uploads(p_older_than_seconds integer, p_limit integer) from public, anon, authenticated;
revoke all on function public.finish_deleted_files(p_keys text[]) from public, anon, authenticated;
revoke all on function public.finish_pending_uploads(p_entry_ids uuid[]) from public, anon, authenticated;
