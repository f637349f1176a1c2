-- Retention
--
-- How long a form keeps its messages, and the sweep that removes older ones.
--
-- Part of the declarative schema (supabase/schemas/, loaded in file-name order, as
-- config.toml's [db.migrations] schema_paths says): the current definition of this capability.
-- Change it here, then `npm run db:diff` prints the migration to add to supabase/migrations/.

-- Function bodies may name objects of later files.
set check_function_bodies = off;

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table public.form_retention (
  form_id uuid not null,
  user_id uuid not null,
  mode text not null,
  days integer,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint form_retention_pkey PRIMARY KEY (form_id),
  constraint form_retention_form_id_fkey FOREIGN KEY (form_id) REFERENCES public.forms(id) ON DELETE CASCADE,
  constraint form_retention_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint form_retention_days CHECK ((((mode = 'days'::text) AND ((days >= 1) AND (days <= 3650))) OR ((mode = 'forward_only'::text) AND (days IS NULL)))),
  constraint form_retention_mode CHECK ((mode = ANY (ARRAY['days'::text, 'forward_only'::text])))
);
create index form_retention_user_id_idx ON public.form_retention (user_id);
comment on table public.form_retention is
  'Per-form retention rule (no row: entries are kept until deleted); applied by sweep_retention().';

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------
create or replace function public.sweep_retention(p_limit integer DEFAULT 5000)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_old integer;
  v_forwarded integer;
  v_mails integer;
  v_ledger integer;
  v_keys integer;
  v_analytics jsonb;
  v_booking jsonb;
  v_lists jsonb;
begin
  -- Entries older than their form's number of days.
  with doomed as (
    select e.id
      from public.form_retention r
      join public.entries e
        on e.form_id = r.form_id and e.created_at < now() - make_interval(days => r.days)
     where r.mode = 'days'
     limit greatest(p_limit, 0)
  )
  delete from public.entries e using doomed where e.id = doomed.id;
  get diagnostics v_old = row_count;

  -- "Forward only": entries none of whose deliveries is still pending or being sent. Deliveries
  -- are queued in the entry's transaction, so a committed entry without one has none to wait for.
  with doomed as (
    select e.id
      from public.form_retention r
      join public.entries e on e.form_id = r.form_id
     where r.mode = 'forward_only'
       and not exists (select 1 from public.email_deliveries d
                        where d.entry_id = e.id and d.status in ('pending', 'sending'))
       and not exists (select 1 from public.email_deliveries d
                        where d.source_entry_id = e.id and d.status in ('pending', 'sending'))
       and not exists (select 1 from public.webhook_deliveries w
                        where w.entry_id = e.id and w.status in ('pending', 'sending'))
     limit greatest(p_limit, 0)
  )
  delete from public.entries e using doomed where e.id = doomed.id;
  get diagnostics v_forwarded = row_count;

  -- Copies of replies still kept (their entry kept too) go 30 days after they were queued.
  delete from public.email_deliveries d
   where d.kind = 'autoresponse' and d.status in ('sent', 'failed')
     and d.created_at < now() - interval '30 days';
  get diagnostics v_mails = row_count;

  v_ledger := private.purge_action_ledger();
  v_keys := private.purge_revoked_api_keys();
  -- Analytics events past their site's retention, and the salts of earlier days.
  v_analytics := private.analytics_sweep(p_limit);
  -- Booking links that can no longer act, and old copies of booking mail.
  v_booking := private.booking_sweep(p_limit);
  -- Owners' lists: expired confirmation links, signups never confirmed, old confirmation mail.
  v_lists := private.newsletter_lists_sweep(p_limit);

  return jsonb_build_object('expired', v_old, 'forwarded', v_forwarded, 'autoresponses', v_mails,
                            'ledger', v_ledger, 'revoked_keys', v_keys, 'analytics', v_analytics,
                            'booking', v_booking, 'lists', v_lists);
end;
$function$;
revoke all on function public.sweep_retention(p_limit integer) from public, anon, authenticated, service_role;
grant execute on function public.sweep_retention(p_limit integer) to service_role;

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------
create trigger form_retention_prepare BEFORE INSERT OR UPDATE ON public.form_retention FOR EACH ROW EXECUTE FUNCTION public.prepare_form_setting();

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table public.form_retention enable row level security;
create policy "Retention rules are deletable by their owner" on public.form_retention
  for delete to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));
create policy "Retention rules can be created by the form owner" on public.form_retention
  for insert to authenticated
  with check (((( SELECT auth.uid() AS uid) = user_id) AND (EXISTS ( SELECT 1
   FROM public.forms f
  WHERE ((f.id = form_retention.form_id) AND (f.user_id = ( SELECT auth.uid() AS uid)))))));
create policy "Retention rules are viewable by their owner" on public.form_retention
  for select to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));
create policy "Retention rules are updatable by their owner" on public.form_retention
  for update to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id))
  with check ((( SELECT auth.uid() AS uid) = user_id));

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table public.form_retention from public, anon, authenticated, service_role;
grant select, delete on table public.form_retention to authenticated;
grant all on table public.form_retention to service_role;
grant insert (form_id, user_id, mode, days) on table public.form_retention to authenticated;
grant update (form_id, mode, days) on table public.form_retention to authenticated;
