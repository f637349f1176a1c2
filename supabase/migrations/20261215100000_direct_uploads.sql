-- Direct uploads from the JavaScript embed: the forms function hands out signed upload URLs for
-- one pending entry, and the post that follows names that entry. private.pending_uploads keeps
-- the files announced (files: position, shown name, size, field, name in the entry's folder);
-- begin_uploads() takes them and how long the URLs stay open, dating the row from when they close
-- so the sweep's hour starts once nothing more can be written under the entry; and
-- direct_upload_entry() tells the post whether the entry it names is stored, pending for that
-- form, or unknown. Both are the service role's alone. claim_pending_uploads() calls an entry
-- committed only when its files are stored.

drop function if exists "public"."begin_uploads"(p_entry_id uuid, p_form_id uuid);

alter table "private"."pending_uploads" add column "files" jsonb;

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION public.begin_uploads(p_entry_id uuid, p_form_id uuid, p_files jsonb DEFAULT NULL::jsonb, p_open_seconds integer DEFAULT 0)
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
  -- commits. A direct upload (p_files: the files announced) hands out signed upload URLs that
  -- stay open for p_open_seconds: the row is dated from when they close, so the sweep's hour
  -- starts once nothing more can be written under the entry.
  insert into private.pending_uploads (entry_id, user_id, form_id, files, created_at)
    values (p_entry_id, v_owner, p_form_id, p_files,
            now() + make_interval(secs => least(greatest(coalesce(p_open_seconds, 0), 0), 86400)))
    on conflict (entry_id) do nothing;
  -- The owner (whose folder the objects go in) and their storage left (null: no quota), so a
  -- post that cannot fit stops early; the reservation when the entry is stored is what holds.
  return jsonb_build_object('user_id', v_owner, 'storage_left', private.storage_left(v_owner));
end;
$function$
;

CREATE OR REPLACE FUNCTION public.direct_upload_entry(p_entry_id uuid, p_form_id uuid)
 RETURNS jsonb
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  -- What a post naming a direct upload's entry may do: `stored` (the entry exists for this form:
  -- a repeat; has_files: whether it kept files, a spam entry keeps none), `pending` (announced for this form and not yet stored: its files as announced,
  -- the owner and their storage left), else `unknown` (another form's, a streamed post's, or
  -- none at all).
  select case
    when exists (select 1 from public.entries e where e.id = p_entry_id and e.form_id = p_form_id)
      then jsonb_build_object('status', 'stored', 'has_files',
                              exists (select 1 from public.entry_files f where f.entry_id = p_entry_id))
    when p.entry_id is not null and p.files is not null
         and not exists (select 1 from public.entries e where e.id = p_entry_id)
      then jsonb_build_object('status', 'pending', 'user_id', p.user_id, 'files', p.files,
                              'storage_left', private.storage_left(p.user_id))
    else jsonb_build_object('status', 'unknown')
  end
  from (select 1) one
  left join private.pending_uploads p on p.entry_id = p_entry_id and p.form_id = p_form_id;
$function$
;

alter function public.begin_uploads(p_entry_id uuid, p_form_id uuid, p_files jsonb, p_open_seconds integer) set search_path to '';
alter function public.direct_upload_entry(p_entry_id uuid, p_form_id uuid) set search_path to '';
revoke all on function public.begin_uploads(p_entry_id uuid, p_form_id uuid, p_files jsonb, p_open_seconds integer) from public, anon, authenticated;
grant execute on function public.begin_uploads(p_entry_id uuid, p_form_id uuid, p_files jsonb, p_open_seconds integer) to postgres;
grant execute on function public.begin_uploads(p_entry_id uuid, p_form_id uuid, p_files jsonb, p_open_seconds integer) to service_role;
revoke all on function public.direct_upload_entry(p_entry_id uuid, p_form_id uuid) from public, anon, authenticated;
grant execute on function public.direct_upload_entry(p_entry_id uuid, p_form_id uuid) to postgres;
grant execute on function public.direct_upload_entry(p_entry_id uuid, p_form_id uuid) to service_role;

-- The sweep keeps the objects of an entry stored with its files; an entry stored without any (spam)
-- keeps none, so what a direct upload's URL wrote under it after its post goes too.
CREATE OR REPLACE FUNCTION public.claim_pending_uploads(p_older_than_seconds integer DEFAULT 3600, p_limit integer DEFAULT 50)
 RETURNS TABLE(entry_id uuid, user_id uuid, form_id uuid, committed boolean)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  -- Entries whose post began writing objects long ago and never cleared its record. One whose
  -- files are stored did commit (entry_files rows exist only with their entry): its objects are
  -- never removed here, whatever left its record behind. An entry stored without files (spam)
  -- keeps no objects: anything written under it since (a direct upload's URL used after the
  -- post) goes.
  select p.entry_id, p.user_id, p.form_id,
         exists (select 1 from public.entry_files f where f.entry_id = p.entry_id)
    from private.pending_uploads p
   where p.created_at < now() - make_interval(secs => greatest(p_older_than_seconds, 0))
   order by p.created_at, p.entry_id
   limit least(greatest(p_limit, 0), 1000);
$function$
;
