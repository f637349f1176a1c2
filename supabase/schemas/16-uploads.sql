-- File uploads
--
-- Files attached to submissions: a form's upload settings, the files stored with each entry (the
-- objects themselves are in Storage's private bucket `submission-files`, under
-- `<user_id>/<form_id>/<entry_id>/<n>-<name>`), what the endpoint has written for an entry not yet
-- committed (for the sweep), and the objects of deleted files still to remove through the
-- Storage API (Storage refuses direct deletes from its tables). Design: docs/UPLOADS.md.
--
-- Part of the declarative schema (supabase/schemas/, loaded in file-name order, as
-- config.toml's [db.migrations] schema_paths says): the current definition of this capability.
-- Change it here, then `npm run db:diff` prints the migration to add to supabase/migrations/.

-- Function bodies may name objects of later files.
set check_function_bodies = off;

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table public.form_uploads (
  form_id uuid not null,
  user_id uuid not null,
  enabled boolean default false not null,
  kinds text[] default '{image,pdf,office,text}'::text[] not null,
  max_file_bytes integer default 5242880 not null,
  max_total_bytes integer default 10485760 not null,
  max_files integer default 3 not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint form_uploads_pkey PRIMARY KEY (form_id),
  constraint form_uploads_form_id_fkey FOREIGN KEY (form_id) REFERENCES public.forms(id) ON DELETE CASCADE,
  constraint form_uploads_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  -- The deployment's ceilings (UPLOADS in supabase/functions/_shared/limits.ts).
  constraint form_uploads_kinds CHECK (((cardinality(kinds) <= 5) AND (kinds <@ ARRAY['image'::text, 'pdf'::text, 'office'::text, 'text'::text, 'archive'::text]))),
  constraint form_uploads_max_file_bytes CHECK (((max_file_bytes >= 1) AND (max_file_bytes <= 10485760))),
  constraint form_uploads_max_total_bytes CHECK (((max_total_bytes >= 1) AND (max_total_bytes <= 26214400))),
  constraint form_uploads_max_files CHECK (((max_files >= 1) AND (max_files <= 10)))
);
create index form_uploads_user_id_idx ON public.form_uploads (user_id);
comment on table public.form_uploads is
  'Per-form file upload settings (no row: uploads off); the endpoint holds them to the deployment''s ceilings.';

create table public.entry_files (
  id uuid default gen_random_uuid() not null,
  entry_id uuid not null,
  user_id uuid not null,
  form_id uuid not null,
  "position" smallint not null,
  object_key text not null,
  name text not null,
  kind text not null,
  mime_type text not null,
  size bigint not null,
  created_at timestamp with time zone default now() not null,
  constraint entry_files_pkey PRIMARY KEY (id),
  constraint entry_files_entry_id_fkey FOREIGN KEY (entry_id) REFERENCES public.entries(id) ON DELETE CASCADE,
  constraint entry_files_entry_position_key UNIQUE (entry_id, "position"),
  constraint entry_files_object_key_key UNIQUE (object_key),
  constraint entry_files_position CHECK ((("position" >= 1) AND ("position" <= 10))),
  constraint entry_files_name CHECK (((char_length(name) >= 1) AND (char_length(name) <= 150))),
  constraint entry_files_kind CHECK ((kind = ANY (ARRAY['image'::text, 'pdf'::text, 'office'::text, 'text'::text, 'archive'::text]))),
  constraint entry_files_size CHECK (((size >= 0) AND (size <= 10485760))),
  -- Under its owner, form and entry, so Storage's policies can tell the owner by the first folder.
  constraint entry_files_object_key CHECK ((object_key = (((((((user_id)::text || '/'::text) || (form_id)::text) || '/'::text) || (entry_id)::text) || '/'::text) || split_part(object_key, '/'::text, 4))))
);
create index entry_files_user_id_idx ON public.entry_files (user_id);
comment on table public.entry_files is
  'The files stored with an entry: shown name, kind, type, size and the object''s key in the submission-files bucket.';

create table private.pending_uploads (
  entry_id uuid not null,
  user_id uuid not null,
  form_id uuid not null,
  created_at timestamp with time zone default now() not null,
  -- A direct upload's files as announced (position, name, size, object_key): the post that
  -- follows is checked against them. Null for a streamed post.
  files jsonb,
  constraint pending_uploads_pkey PRIMARY KEY (entry_id)
);
create index pending_uploads_created_at_idx ON private.pending_uploads (created_at);
comment on table private.pending_uploads is
  'Entries whose files the endpoint has begun to write and not yet committed; the sweep removes the objects of old ones.';

create table private.deleted_files (
  object_key text not null,
  deleted_at timestamp with time zone default now() not null,
  constraint deleted_files_pkey PRIMARY KEY (object_key)
);
comment on table private.deleted_files is
  'Objects of deleted entry files still to remove through the Storage API (by the scheduled pass).';

create table private.upload_settings (
  id boolean default true not null,
  storage_quota_bytes bigint default 1073741824,
  constraint upload_settings_pkey PRIMARY KEY (id),
  constraint upload_settings_id_check CHECK (id),
  constraint upload_settings_storage_quota_bytes CHECK (((storage_quota_bytes IS NULL) OR (storage_quota_bytes >= 0)))
);
comment on table private.upload_settings is
  'One row: the deployment''s storage quota per account for submission files, in bytes (null: none).';

create table private.storage_usage (
  user_id uuid not null,
  bytes bigint default 0 not null,
  constraint storage_usage_pkey PRIMARY KEY (user_id),
  constraint storage_usage_bytes CHECK ((bytes >= 0))
);
comment on table private.storage_usage is
  'Bytes of submission files each account keeps (taken when an entry''s files are stored, given back when they are deleted).';

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------
create or replace function private.remember_deleted_files()
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
$function$;
revoke all on function private.remember_deleted_files() from public, anon, authenticated, service_role;

create or replace function public.begin_uploads(p_entry_id uuid, p_form_id uuid, p_files jsonb DEFAULT NULL::jsonb, p_open_seconds integer DEFAULT 0)
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
$function$;

create or replace function public.direct_upload_entry(p_entry_id uuid, p_form_id uuid)
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
$function$;
revoke all on function public.direct_upload_entry(p_entry_id uuid, p_form_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.direct_upload_entry(p_entry_id uuid, p_form_id uuid) to service_role;

create or replace function private.storage_left(p_user uuid)
 RETURNS bigint
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select greatest(0, s.storage_quota_bytes - coalesce(
           (select u.bytes from private.storage_usage u where u.user_id = p_user), 0))
    from private.upload_settings s
   where s.id and s.storage_quota_bytes is not null;
$function$;
revoke all on function private.storage_left(p_user uuid) from public, anon, authenticated, service_role;

create or replace function private.files_bytes(p_files jsonb)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select coalesce(sum((f.value ->> 'size')::bigint), 0) from jsonb_array_elements(p_files) f;
$function$;
revoke all on function private.files_bytes(p_files jsonb) from public, anon, authenticated, service_role;

create or replace function private.reserve_storage(p_user uuid, p_bytes bigint)
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
$function$;
revoke all on function private.reserve_storage(p_user uuid, p_bytes bigint) from public, anon, authenticated, service_role;


create or replace function public.storage_use()
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
$function$;
revoke all on function public.storage_use() from public, anon, authenticated, service_role;
grant execute on function public.storage_use() to authenticated;
revoke all on function public.begin_uploads(p_entry_id uuid, p_form_id uuid, p_files jsonb, p_open_seconds integer) from public, anon, authenticated, service_role;
grant execute on function public.begin_uploads(p_entry_id uuid, p_form_id uuid, p_files jsonb, p_open_seconds integer) to service_role;

create or replace function private.store_entry_files(p_entry_id uuid, p_files jsonb)
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
$function$;
revoke all on function private.store_entry_files(p_entry_id uuid, p_files jsonb) from public, anon, authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------
create trigger form_uploads_prepare BEFORE INSERT OR UPDATE ON public.form_uploads FOR EACH ROW EXECUTE FUNCTION public.prepare_form_setting();
create trigger entry_files_remember_deleted AFTER DELETE ON public.entry_files REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION private.remember_deleted_files();

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table public.form_uploads enable row level security;
create policy "Upload settings are deletable by their owner" on public.form_uploads
  for delete to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));
create policy "Upload settings can be created by the form owner" on public.form_uploads
  for insert to authenticated
  with check (((( SELECT auth.uid() AS uid) = user_id) AND (EXISTS ( SELECT 1
   FROM public.forms f
  WHERE ((f.id = form_uploads.form_id) AND (f.user_id = ( SELECT auth.uid() AS uid)))))));
create policy "Upload settings are viewable by their owner" on public.form_uploads
  for select to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));
create policy "Upload settings are updatable by their owner" on public.form_uploads
  for update to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id))
  with check ((( SELECT auth.uid() AS uid) = user_id));

alter table public.entry_files enable row level security;
create policy "Entry files are viewable by their owner" on public.entry_files
  for select to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));

alter table private.pending_uploads enable row level security;
alter table private.deleted_files enable row level security;
alter table private.upload_settings enable row level security;
alter table private.storage_usage enable row level security;

-- Storage: the owner reads the objects under their own first folder in the submission-files
-- bucket; nobody else (anon included) reads, lists or signs them. Only the service role (the
-- endpoint, the sweep) writes and removes them.
create policy "Submission files are readable by their owner" on storage.objects
  for select to authenticated
  using (((bucket_id = 'submission-files'::text) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table public.form_uploads from public, anon, authenticated, service_role;
grant select, delete on table public.form_uploads to authenticated;
grant all on table public.form_uploads to service_role;
grant insert (form_id, user_id, enabled, kinds, max_file_bytes, max_total_bytes, max_files) on table public.form_uploads to authenticated;
grant update (form_id, enabled, kinds, max_file_bytes, max_total_bytes, max_files) on table public.form_uploads to authenticated;

revoke all on table public.entry_files from public, anon, authenticated, service_role;
grant select on table public.entry_files to authenticated;
grant all on table public.entry_files to service_role;

revoke all on table private.pending_uploads from public, anon, authenticated, service_role;
revoke all on table private.deleted_files from public, anon, authenticated, service_role;
revoke all on table private.upload_settings from public, anon, authenticated, service_role;
revoke all on table private.storage_usage from public, anon, authenticated, service_role;

-- ------------------------------------------------------------------------------------------------
-- Data: the deployment's setting and the private bucket (its own size cap: the largest file the
-- deployment allows)
-- ------------------------------------------------------------------------------------------------
insert into private.upload_settings (id) values (true) on conflict (id) do nothing;

insert into storage.buckets (id, name, public, file_size_limit)
  values ('submission-files', 'submission-files', false, 10485760)
  on conflict (id) do nothing;

-- ================================================================================================
-- The file sweep: what the scheduled pass (the forms function's `_deliver`,
-- supabase/functions/forms/uploads/sweep.ts) asks for and reports done. Objects are removed
-- through the Storage API between the two calls, so each batch is read, removed, then deleted
-- here; a pass that fails in between leaves its rows for the next one. Removing an object that is
-- already gone is no error, so two passes that read the same rows do no harm: no lease is kept.
-- ================================================================================================
create or replace function public.claim_deleted_files(p_limit integer DEFAULT 500)
 RETURNS SETOF text
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  -- Oldest first; at most 1 000, what one Storage remove call takes.
  select d.object_key from private.deleted_files d
   order by d.deleted_at, d.object_key
   limit least(greatest(p_limit, 0), 1000);
$function$;
revoke all on function public.claim_deleted_files(p_limit integer) from public, anon, authenticated, service_role;
grant execute on function public.claim_deleted_files(p_limit integer) to service_role;

create or replace function public.finish_deleted_files(p_keys text[])
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
$function$;
revoke all on function public.finish_deleted_files(p_keys text[]) from public, anon, authenticated, service_role;
grant execute on function public.finish_deleted_files(p_keys text[]) to service_role;

create or replace function public.claim_pending_uploads(p_older_than_seconds integer DEFAULT 3600, p_limit integer DEFAULT 50)
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
$function$;
revoke all on function public.claim_pending_uploads(p_older_than_seconds integer, p_limit integer) from public, anon, authenticated, service_role;
grant execute on function public.claim_pending_uploads(p_older_than_seconds integer, p_limit integer) to service_role;

create or replace function public.finish_pending_uploads(p_entry_ids uuid[])
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
$function$;
revoke all on function public.finish_pending_uploads(p_entry_ids uuid[]) from public, anon, authenticated, service_role;
grant execute on function public.finish_pending_uploads(p_entry_ids uuid[]) to service_role;
