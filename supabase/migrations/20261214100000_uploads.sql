-- File uploads (supabase/schemas/16-uploads.sql; design in docs/UPLOADS.md): a form's upload
-- settings, the files stored with each entry, the endpoint's record of entries whose files are
-- being written (for the orphan sweep), the objects of deleted files still to remove, the owner's
-- read policy on storage.objects, and the private bucket `submission-files`.

create table "private"."deleted_files" (
    "object_key" text not null,
    "deleted_at" timestamp with time zone not null default now()
      );


alter table "private"."deleted_files" enable row level security;


  create table "private"."pending_uploads" (
    "entry_id" uuid not null,
    "user_id" uuid not null,
    "form_id" uuid not null,
    "created_at" timestamp with time zone not null default now()
      );


alter table "private"."pending_uploads" enable row level security;


  create table "public"."entry_files" (
    "id" uuid not null default gen_random_uuid(),
    "entry_id" uuid not null,
    "user_id" uuid not null,
    "form_id" uuid not null,
    "position" smallint not null,
    "object_key" text not null,
    "name" text not null,
    "kind" text not null,
    "mime_type" text not null,
    "size" bigint not null,
    "created_at" timestamp with time zone not null default now()
      );


alter table "public"."entry_files" enable row level security;


  create table "public"."form_uploads" (
    "form_id" uuid not null,
    "user_id" uuid not null,
    "enabled" boolean not null default false,
    "kinds" text[] not null default '{image,pdf,office,text}'::text[],
    "max_file_bytes" integer not null default 5242880,
    "max_total_bytes" integer not null default 10485760,
    "max_files" integer not null default 3,
    "created_at" timestamp with time zone not null default now(),
    "updated_at" timestamp with time zone not null default now()
      );


alter table "public"."form_uploads" enable row level security;

CREATE UNIQUE INDEX deleted_files_pkey ON private.deleted_files USING btree (object_key);

CREATE INDEX pending_uploads_created_at_idx ON private.pending_uploads USING btree (created_at);

CREATE UNIQUE INDEX pending_uploads_pkey ON private.pending_uploads USING btree (entry_id);

CREATE UNIQUE INDEX entry_files_entry_position_key ON public.entry_files USING btree (entry_id, "position");

CREATE UNIQUE INDEX entry_files_object_key_key ON public.entry_files USING btree (object_key);

CREATE UNIQUE INDEX entry_files_pkey ON public.entry_files USING btree (id);

CREATE INDEX entry_files_user_id_idx ON public.entry_files USING btree (user_id);

CREATE UNIQUE INDEX form_uploads_pkey ON public.form_uploads USING btree (form_id);

CREATE INDEX form_uploads_user_id_idx ON public.form_uploads USING btree (user_id);

alter table "private"."deleted_files" add constraint "deleted_files_pkey" PRIMARY KEY using index "deleted_files_pkey";

alter table "private"."pending_uploads" add constraint "pending_uploads_pkey" PRIMARY KEY using index "pending_uploads_pkey";

alter table "public"."entry_files" add constraint "entry_files_pkey" PRIMARY KEY using index "entry_files_pkey";

alter table "public"."form_uploads" add constraint "form_uploads_pkey" PRIMARY KEY using index "form_uploads_pkey";

alter table "public"."entry_files" add constraint "entry_files_entry_id_fkey" FOREIGN KEY (entry_id) REFERENCES entries(id) ON DELETE CASCADE not valid;

alter table "public"."entry_files" validate constraint "entry_files_entry_id_fkey";

alter table "public"."entry_files" add constraint "entry_files_entry_position_key" UNIQUE using index "entry_files_entry_position_key";

alter table "public"."entry_files" add constraint "entry_files_kind" CHECK ((kind = ANY (ARRAY['image'::text, 'pdf'::text, 'office'::text, 'text'::text, 'archive'::text]))) not valid;

alter table "public"."entry_files" validate constraint "entry_files_kind";

alter table "public"."entry_files" add constraint "entry_files_name" CHECK (((char_length(name) >= 1) AND (char_length(name) <= 150))) not valid;

alter table "public"."entry_files" validate constraint "entry_files_name";

alter table "public"."entry_files" add constraint "entry_files_object_key" CHECK ((object_key = (((((((user_id)::text || '/'::text) || (form_id)::text) || '/'::text) || (entry_id)::text) || '/'::text) || split_part(object_key, '/'::text, 4)))) not valid;

alter table "public"."entry_files" validate constraint "entry_files_object_key";

alter table "public"."entry_files" add constraint "entry_files_object_key_key" UNIQUE using index "entry_files_object_key_key";

alter table "public"."entry_files" add constraint "entry_files_position" CHECK ((("position" >= 1) AND ("position" <= 10))) not valid;

alter table "public"."entry_files" validate constraint "entry_files_position";

alter table "public"."entry_files" add constraint "entry_files_size" CHECK (((size >= 0) AND (size <= 10485760))) not valid;

alter table "public"."entry_files" validate constraint "entry_files_size";

alter table "public"."form_uploads" add constraint "form_uploads_form_id_fkey" FOREIGN KEY (form_id) REFERENCES forms(id) ON DELETE CASCADE not valid;

alter table "public"."form_uploads" validate constraint "form_uploads_form_id_fkey";

alter table "public"."form_uploads" add constraint "form_uploads_kinds" CHECK (((cardinality(kinds) <= 5) AND (kinds <@ ARRAY['image'::text, 'pdf'::text, 'office'::text, 'text'::text, 'archive'::text]))) not valid;

alter table "public"."form_uploads" validate constraint "form_uploads_kinds";

alter table "public"."form_uploads" add constraint "form_uploads_max_file_bytes" CHECK (((max_file_bytes >= 1) AND (max_file_bytes <= 10485760))) not valid;

alter table "public"."form_uploads" validate constraint "form_uploads_max_file_bytes";

alter table "public"."form_uploads" add constraint "form_uploads_max_files" CHECK (((max_files >= 1) AND (max_files <= 10))) not valid;

alter table "public"."form_uploads" validate constraint "form_uploads_max_files";

alter table "public"."form_uploads" add constraint "form_uploads_max_total_bytes" CHECK (((max_total_bytes >= 1) AND (max_total_bytes <= 26214400))) not valid;

alter table "public"."form_uploads" validate constraint "form_uploads_max_total_bytes";

alter table "public"."form_uploads" add constraint "form_uploads_user_id_fkey" FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE not valid;

alter table "public"."form_uploads" validate constraint "form_uploads_user_id_fkey";

set check_function_bodies = off;

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
  return null;
end;
$function$
;

grant select on table "public"."entry_files" to "authenticated";

grant delete on table "public"."entry_files" to "service_role";

grant insert on table "public"."entry_files" to "service_role";

grant references on table "public"."entry_files" to "service_role";

grant select on table "public"."entry_files" to "service_role";

grant trigger on table "public"."entry_files" to "service_role";

grant truncate on table "public"."entry_files" to "service_role";

grant update on table "public"."entry_files" to "service_role";

grant delete on table "public"."form_uploads" to "authenticated";

grant select on table "public"."form_uploads" to "authenticated";

grant delete on table "public"."form_uploads" to "service_role";

grant insert on table "public"."form_uploads" to "service_role";

grant references on table "public"."form_uploads" to "service_role";

grant select on table "public"."form_uploads" to "service_role";

grant trigger on table "public"."form_uploads" to "service_role";

grant truncate on table "public"."form_uploads" to "service_role";

grant update on table "public"."form_uploads" to "service_role";


  create policy "Entry files are viewable by their owner"
  on "public"."entry_files"
  as permissive
  for select
  to authenticated
using ((( SELECT auth.uid() AS uid) = user_id));



  create policy "Upload settings are deletable by their owner"
  on "public"."form_uploads"
  as permissive
  for delete
  to authenticated
using ((( SELECT auth.uid() AS uid) = user_id));



  create policy "Upload settings are updatable by their owner"
  on "public"."form_uploads"
  as permissive
  for update
  to authenticated
using ((( SELECT auth.uid() AS uid) = user_id))
with check ((( SELECT auth.uid() AS uid) = user_id));



  create policy "Upload settings are viewable by their owner"
  on "public"."form_uploads"
  as permissive
  for select
  to authenticated
using ((( SELECT auth.uid() AS uid) = user_id));



  create policy "Upload settings can be created by the form owner"
  on "public"."form_uploads"
  as permissive
  for insert
  to authenticated
with check (((( SELECT auth.uid() AS uid) = user_id) AND (EXISTS ( SELECT 1
   FROM forms f
  WHERE ((f.id = form_uploads.form_id) AND (f.user_id = ( SELECT auth.uid() AS uid)))))));



  create policy "Submission files are readable by their owner"
  on "storage"."objects"
  as permissive
  for select
  to authenticated
using (((bucket_id = 'submission-files'::text) AND ((storage.foldername(name))[1] = (( SELECT auth.uid() AS uid))::text)));


CREATE TRIGGER entry_files_remember_deleted AFTER DELETE ON public.entry_files REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION private.remember_deleted_files();

CREATE TRIGGER form_uploads_prepare BEFORE INSERT OR UPDATE ON public.form_uploads FOR EACH ROW EXECUTE FUNCTION prepare_form_setting();

alter function private.remember_deleted_files() set search_path to '';
comment on table private.deleted_files is 'Objects of deleted entry files still to remove through the Storage API (by the scheduled pass).';
comment on table private.pending_uploads is 'Entries whose files the endpoint has begun to write and not yet committed; the sweep removes the objects of old ones.';
comment on table public.entry_files is 'The files stored with an entry: shown name, kind, type, size and the object''s key in the submission-files bucket.';
comment on table public.form_uploads is 'Per-form file upload settings (no row: uploads off); the endpoint holds them to the deployment''s ceilings.';
grant execute on function private.remember_deleted_files() to postgres;
grant insert (enabled) on table public.form_uploads to authenticated;
grant insert (form_id) on table public.form_uploads to authenticated;
grant insert (kinds) on table public.form_uploads to authenticated;
grant insert (max_file_bytes) on table public.form_uploads to authenticated;
grant insert (max_files) on table public.form_uploads to authenticated;
grant insert (max_total_bytes) on table public.form_uploads to authenticated;
grant insert (user_id) on table public.form_uploads to authenticated;
grant update (enabled) on table public.form_uploads to authenticated;
grant update (form_id) on table public.form_uploads to authenticated;
grant update (kinds) on table public.form_uploads to authenticated;
grant update (max_file_bytes) on table public.form_uploads to authenticated;
grant update (max_files) on table public.form_uploads to authenticated;
grant update (max_total_bytes) on table public.form_uploads to authenticated;

insert into storage.buckets (id, name, public, file_size_limit)
  values ('submission-files', 'submission-files', false, 10485760)
  on conflict (id) do nothing;
revoke all on function private.remember_deleted_files() from public, anon, authenticated, service_role;
