-- A form id is used once, ever. The dashboard generates ids in the browser (so the embed code can
-- be shown at once), and a deleted form's HTML may stay published on its owner's site for years:
-- if someone else could insert a new form with that id and the same origin, the old page's
-- visitors would post to them. Every id a form has ever had is recorded here and refused again.

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
-- Every id ever given to a form, kept after the form and its owner are gone (no foreign keys, so
-- neither deleting a form nor deleting an account removes a row). Recording ids at insert time
-- rather than tombstones at delete time leaves no race: two transactions inserting one id meet on
-- this primary key, whatever happened to the form in between.
create table public.used_form_ids (
  id uuid primary key,
  first_used_at timestamptz not null default now()
);

comment on table public.used_form_ids is
  'Every id a form has ever had; a form id is never given out twice (written by a trigger only).';

-- The forms that exist now. Ids of forms deleted before this migration cannot be recovered.
insert into public.used_form_ids (id)
select id from public.forms
on conflict (id) do nothing;

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------
-- Records a new form's id, refusing one recorded before (a form that exists or existed). Also
-- guards an id change, which only the service role could make (users have no UPDATE grant on id).
-- ON CONFLICT waits for a concurrent insert of the same id and then sees it, so two racing
-- inserts cannot both pass.
create function public.register_form_id()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.id = old.id then
    return new;
  end if;
  insert into public.used_form_ids (id) values (new.id) on conflict (id) do nothing;
  if not found then
    raise exception 'This form id was used before.'
      using errcode = '23505',
            detail = 'Form ids are never reused, so a deleted form''s published HTML cannot reach a new owner.',
            hint = 'Create the form with a new random id.';
  end if;
  return new;
end;
$$;

create trigger forms_register_id
  before insert or update of id on public.forms
  for each row execute function public.register_form_id();

revoke execute on function public.register_form_id() from public, anon, authenticated;

-- ------------------------------------------------------------------------------------------------
-- Row level security and grants
-- ------------------------------------------------------------------------------------------------
-- Nobody reads or writes the list but the trigger (its definer) and the service role; without a
-- policy, RLS refuses every row to everyone else even if a grant appeared later.
alter table public.used_form_ids enable row level security;

-- (Supabase's default privileges would grant all of a new table to anon, authenticated and
-- service_role: take every one back, then let the service role read the list.)
revoke all on table public.used_form_ids from public, anon, authenticated, service_role;
grant select on table public.used_form_ids to service_role;
