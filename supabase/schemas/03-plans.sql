-- Plans and quotas
--
-- Plans, the deployment settings, each account's plan, monthly submission usage and the project
-- cap.
--
-- Part of the declarative schema (supabase/schemas/, loaded in file-name order, as
-- config.toml's [db.migrations] schema_paths says): the current definition of this capability.
-- Change it here, then `npm run db:diff` prints the migration to add to supabase/migrations/.

-- Function bodies may name objects of later files.
set check_function_bodies = off;

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table public.plans (
  id text not null,
  name text not null,
  projects integer,
  submissions_per_month integer,
  listed boolean default true not null,
  position integer not null,
  constraint plans_pkey PRIMARY KEY (id),
  constraint plans_id_format CHECK ((id ~ '^[a-z][a-z0-9_]{0,29}$'::text)),
  constraint plans_name_length CHECK (((char_length(name) >= 1) AND (char_length(name) <= 50))),
  constraint plans_projects_range CHECK (((projects IS NULL) OR (projects >= 0))),
  constraint plans_submissions_range CHECK (((submissions_per_month IS NULL) OR (submissions_per_month >= 0)))
);
comment on table public.plans is
  'Quota tiers: projects (distinct allowed origins) and non-spam submissions per calendar month (UTC); null is unlimited.';

create table private.plan_settings (
  id boolean default true not null,
  default_plan text default 'free'::text not null,
  unlimited boolean default false not null,
  contact_email text default 'hello@tinyback.tools'::text not null,
  constraint plan_settings_pkey PRIMARY KEY (id),
  constraint plan_settings_default_plan_fkey FOREIGN KEY (default_plan) REFERENCES public.plans(id),
  constraint plan_settings_contact_email CHECK (((char_length(contact_email) <= 320) AND (contact_email ~ '^[^\s@]+@[^\s@]+$'::text))),
  constraint plan_settings_id_check CHECK (id)
);
comment on table private.plan_settings is
  'One row: the plan new accounts start on, whether the deployment sets no quotas at all, and where to ask for a bigger plan.';

create table public.account_plans (
  user_id uuid not null,
  plan_id text not null,
  chosen_plan text,
  chosen_billing text,
  plan_changed_at timestamp with time zone default now() not null,
  created_at timestamp with time zone default now() not null,
  constraint account_plans_pkey PRIMARY KEY (user_id),
  constraint account_plans_chosen_plan_fkey FOREIGN KEY (chosen_plan) REFERENCES public.plans(id),
  constraint account_plans_plan_id_fkey FOREIGN KEY (plan_id) REFERENCES public.plans(id),
  constraint account_plans_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE,
  constraint account_plans_chosen_billing CHECK ((chosen_billing = ANY (ARRAY['monthly'::text, 'annual'::text])))
);
create index account_plans_plan_idx ON public.account_plans (plan_id);
comment on table public.account_plans is
  'Each account''s active plan (the default plan at sign-up) and the plan and billing cycle chosen before registering.';

create table private.submission_usage (
  user_id uuid not null,
  month date not null,
  submissions integer default 0 not null,
  warned_80_at timestamp with time zone,
  warned_100_at timestamp with time zone,
  constraint submission_usage_pkey PRIMARY KEY (user_id, month)
);
comment on table private.submission_usage is
  'Non-spam submissions stored per account and calendar month (UTC), and when the 80 % and 100 % warnings were queued.';

-- ------------------------------------------------------------------------------------------------
-- Functions
-- ------------------------------------------------------------------------------------------------
create or replace function public.handle_new_account_plan()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_chosen text;
  v_billing text;
begin
  select p.id into v_chosen from public.plans p
   where p.listed and p.id = new.raw_user_meta_data ->> 'plan';
  if v_chosen is not null then
    v_billing := case when new.raw_user_meta_data ->> 'billing' = 'annual' then 'annual'
                      else 'monthly' end;
  end if;
  insert into public.account_plans (user_id, plan_id, chosen_plan, chosen_billing)
    values (
      new.id,
      coalesce((select s.default_plan from private.plan_settings s where s.id), 'free'),
      v_chosen,
      v_billing
    )
    on conflict (user_id) do nothing;
  return new;
end;
$function$;
revoke all on function public.handle_new_account_plan() from public, anon, authenticated, service_role;

create or replace function public.account_plan_changed()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if new.plan_id is distinct from old.plan_id then
    new.plan_changed_at := now();
    update private.submission_usage u
       set warned_80_at = null, warned_100_at = null
     where u.user_id = new.user_id and u.month = private.usage_month();
  end if;
  return new;
end;
$function$;
revoke all on function public.account_plan_changed() from public, anon, authenticated, service_role;

create or replace function public.enforce_plan_projects()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := (select auth.uid());
  v_self uuid;
  v_plan public.plans;
  v_used integer;
begin
  if v_uid is null or new.user_id is distinct from v_uid then
    return new;
  end if;
  if tg_op = 'UPDATE' then
    if new.allowed_origin is not distinct from old.allowed_origin then
      return new;
    end if;
    v_self := old.id;
  end if;
  v_plan := private.effective_plan(v_uid);
  if v_plan.projects is null then
    return new;
  end if;
  -- One decision at a time per account, so two new websites cannot both take the last project.
  perform pg_advisory_xact_lock(hashtextextended('tinyback.plan_projects:' || v_uid::text, 0));
  if exists (select 1 from public.forms f
              where f.user_id = v_uid and f.allowed_origin = new.allowed_origin
                and f.id is distinct from v_self) then
    return new;
  end if;
  select count(distinct f.allowed_origin)::integer into v_used
    from public.forms f where f.user_id = v_uid and f.id is distinct from v_self;
  if v_used + 1 > v_plan.projects then
    raise exception '%', format(
        'Your %s plan includes %s (one website each), and %s would be another. Use the website of one of your forms, or move to a bigger plan (Settings → Plan and usage).',
        v_plan.name, private.quota_count(v_plan.projects, 'project'), new.allowed_origin)
      using errcode = 'PT403', hint = 'plan_project_limit',
            detail = format('Projects in use: %s of %s.', v_used, v_plan.projects);
  end if;
  return new;
end;
$function$;
revoke all on function public.enforce_plan_projects() from public, anon, authenticated, service_role;

create or replace function public.set_account_plan(p_user_id uuid, p_plan text)
 RETURNS public.account_plans
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_row public.account_plans;
begin
  perform 1 from public.plans p where p.id = p_plan;
  if not found then
    raise exception 'There is no plan "%".', p_plan
      using errcode = 'PT404', hint = 'plan_not_found',
            detail = (select 'Plans: ' || string_agg(p.id, ', ' order by p.position) from public.plans p);
  end if;
  perform 1 from auth.users u where u.id = p_user_id;
  if not found then
    raise exception 'There is no account with this id.' using errcode = 'PT404', hint = 'account_not_found';
  end if;
  insert into public.account_plans (user_id, plan_id) values (p_user_id, p_plan)
    on conflict (user_id) do update set plan_id = excluded.plan_id
    returning * into v_row;
  return v_row;
end;
$function$;
revoke all on function public.set_account_plan(p_user_id uuid, p_plan text) from public, anon, authenticated, service_role;
grant execute on function public.set_account_plan(p_user_id uuid, p_plan text) to service_role;

create or replace function private.effective_plan(p_user uuid)
 RETURNS public.plans
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select p.* from public.plans p
   where p.id = coalesce(
     (select case when s.unlimited then 'unlimited'
                  else coalesce((select a.plan_id from public.account_plans a where a.user_id = p_user),
                                s.default_plan) end
        from private.plan_settings s where s.id),
     'free');
$function$;
revoke all on function private.effective_plan(p_user uuid) from public, anon, authenticated, service_role;

create or replace function private.quota_count(p_n integer, p_unit text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select to_char(p_n, 'FM999,999,999,990') || ' ' || p_unit || case when p_n = 1 then '' else 's' end;
$function$;
revoke all on function private.quota_count(p_n integer, p_unit text) from public, anon, authenticated, service_role;

create or replace function private.take_submission_quota(p_user uuid, p_is_spam boolean)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_plan public.plans := private.effective_plan(p_user);
  v_month date := private.usage_month();
  v_usage private.submission_usage;
begin
  -- A post within the quota: counted by one statement, under the month's row lock, so a racing
  -- post waits and then decides on the count this one left.
  if not p_is_spam then
    update private.submission_usage u
       set submissions = u.submissions + 1
     where u.user_id = p_user and u.month = v_month
       and (v_plan.submissions_per_month is null or u.submissions < v_plan.submissions_per_month)
    returning u.* into v_usage;
    if found then
      if v_plan.submissions_per_month is not null then
        perform private.warn_submission_quota(p_user, v_plan, v_usage);
      end if;
      return 0;
    end if;
  end if;
  -- Spam (checked, not counted), the month's first post, or a full month.
  insert into private.submission_usage (user_id, month) values (p_user, v_month)
    on conflict (user_id, month) do nothing;
  select u.* into v_usage from private.submission_usage u
   where u.user_id = p_user and u.month = v_month for update;
  if v_plan.submissions_per_month is not null
     and v_usage.submissions >= v_plan.submissions_per_month then
    -- A plan lowered mid-month may leave the 100 % warning unsent: it goes with the first refusal.
    perform private.warn_submission_quota(p_user, v_plan, v_usage);
    return greatest(ceil(extract(epoch from (private.usage_resets_at() - now())))::integer, 1);
  end if;
  if p_is_spam then
    return 0;
  end if;
  update private.submission_usage u
     set submissions = u.submissions + 1
   where u.user_id = p_user and u.month = v_month
  returning u.* into v_usage;
  perform private.warn_submission_quota(p_user, v_plan, v_usage);
  return 0;
end;
$function$;
revoke all on function private.take_submission_quota(p_user uuid, p_is_spam boolean) from public, anon, authenticated, service_role;

create or replace function private.warn_submission_quota(p_user uuid, p_plan public.plans, p_usage private.submission_usage)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_limit integer := p_plan.submissions_per_month;
  v_level integer;
  v_to text;
  v_contact text;
  v_resets text := to_char(private.usage_resets_at() at time zone 'utc', 'FMDD FMMonth YYYY');
  v_month_name text := to_char(p_usage.month, 'FMMonth');
  v_subject text;
  v_text text;
begin
  if v_limit is null then
    return;
  end if;
  if p_usage.submissions >= v_limit and p_usage.warned_100_at is null then
    v_level := 100;
    update private.submission_usage u
       set warned_100_at = now(), warned_80_at = coalesce(u.warned_80_at, now())
     where u.user_id = p_user and u.month = p_usage.month;
  elsif p_usage.submissions >= ceil(v_limit * 0.8) and p_usage.warned_80_at is null
        and p_usage.warned_100_at is null then
    v_level := 80;
    update private.submission_usage u
       set warned_80_at = now()
     where u.user_id = p_user and u.month = p_usage.month;
  else
    return;
  end if;

  select u.email into v_to from auth.users u
   where u.id = p_user and u.email_confirmed_at is not null;
  if v_to is null then
    return;
  end if;
  select s.contact_email into v_contact from private.plan_settings s where s.id;

  if v_level = 100 then
    v_subject := format('Your %s plan''s %s for %s are used up', p_plan.name,
                        private.quota_count(v_limit, 'submission'), v_month_name);
    v_text := concat_ws(E'\n',
      'Hello,',
      '',
      format('Your forms have received all %s your %s plan includes this month.',
             private.quota_count(v_limit, 'submission'), p_plan.name),
      '',
      format('What happens now: until the count starts again on %s (UTC), new submissions to your '
             || 'forms are refused and not stored; visitors are told that the form cannot accept '
             || 'messages right now. Messages you have already received are kept.', v_resets),
      '');
  else
    v_subject := format('You have used %s of your %s plan''s %s for %s',
                        to_char(p_usage.submissions, 'FM999,999,999,990'), p_plan.name,
                        private.quota_count(v_limit, 'submission'), v_month_name);
    v_text := concat_ws(E'\n',
      'Hello,',
      '',
      format('Your forms have received %s of the %s your %s plan includes this month (%s %%).',
             to_char(p_usage.submissions, 'FM999,999,999,990'),
             private.quota_count(v_limit, 'submission'), p_plan.name,
             floor(p_usage.submissions * 100.0 / v_limit)),
      '',
      format('What happens next: once all %s are used, new submissions to your forms are refused '
             || 'and not stored until the count starts again on %s (UTC). Messages you have '
             || 'already received are kept. Spam caught by the honeypot does not count.',
             to_char(v_limit, 'FM999,999,999,990'), v_resets),
      '');
  end if;
  v_text := concat_ws(E'\n', v_text,
    format('To receive more, move to a bigger plan: plans are switched by hand on request. Write to '
           || '%s from this address and name the plan you want. Settings → Plan and usage shows '
           || 'your usage.', v_contact),
    '');

  insert into public.email_deliveries (kind, user_id, recipient, subject, text_body, html_body)
    values (
      'quota_warning', p_user, v_to, left(v_subject, 200), v_text,
      '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">'
        || replace(public.confirmation_mail_escape(v_text), E'\n', '<br>')
        || '</body></html>'
    );
end;
$function$;
revoke all on function private.warn_submission_quota(p_user uuid, p_plan public.plans, p_usage private.submission_usage) from public, anon, authenticated, service_role;

create or replace function private.usage_month()
 RETURNS date
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select date_trunc('month', now() at time zone 'utc')::date;
$function$;
revoke all on function private.usage_month() from public, anon, authenticated, service_role;

create or replace function private.usage_resets_at()
 RETURNS timestamp with time zone
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select (date_trunc('month', now() at time zone 'utc') + interval '1 month') at time zone 'utc';
$function$;
revoke all on function private.usage_resets_at() from public, anon, authenticated, service_role;

create or replace function public.plan_usage()
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := (select auth.uid());
  v_account public.account_plans;
  v_plan public.plans;
  v_effective public.plans;
  v_settings private.plan_settings;
  v_usage private.submission_usage;
begin
  if v_uid is null then
    raise exception 'Sign in to see your plan.' using errcode = '42501';
  end if;
  select s.* into v_settings from private.plan_settings s where s.id;
  select a.* into v_account from public.account_plans a where a.user_id = v_uid;
  select p.* into v_plan from public.plans p
   where p.id = coalesce(v_account.plan_id, v_settings.default_plan, 'free');
  v_effective := private.effective_plan(v_uid);
  select u.* into v_usage from private.submission_usage u
   where u.user_id = v_uid and u.month = private.usage_month();
  return jsonb_build_object(
    'plan', jsonb_build_object(
      'id', v_plan.id, 'name', v_plan.name, 'projects', v_plan.projects,
      'submissions_per_month', v_plan.submissions_per_month),
    'limits', jsonb_build_object(
      'projects', v_effective.projects,
      'submissions_per_month', v_effective.submissions_per_month),
    'deployment_unlimited', coalesce(v_settings.unlimited, false),
    'chosen_plan', v_account.chosen_plan,
    'chosen_billing', v_account.chosen_billing,
    'plan_changed_at', v_account.plan_changed_at,
    'projects_used', (select count(distinct f.allowed_origin)::integer
                        from public.forms f where f.user_id = v_uid),
    'submissions_used', coalesce(v_usage.submissions, 0),
    'month_start', private.usage_month(),
    'resets_at', private.usage_resets_at(),
    'warned_80', v_usage.warned_80_at is not null,
    'warned_100', v_usage.warned_100_at is not null,
    'contact_email', v_settings.contact_email
  );
end;
$function$;
revoke all on function public.plan_usage() from public, anon, authenticated, service_role;
grant execute on function public.plan_usage() to authenticated;

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------
create trigger on_auth_user_created_plan AFTER INSERT ON auth.users FOR EACH ROW EXECUTE FUNCTION public.handle_new_account_plan();
create trigger account_plans_changed BEFORE UPDATE ON public.account_plans FOR EACH ROW EXECUTE FUNCTION public.account_plan_changed();
create trigger forms_plan_projects BEFORE INSERT OR UPDATE OF allowed_origin ON public.forms FOR EACH ROW EXECUTE FUNCTION public.enforce_plan_projects();

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table public.plans enable row level security;
create policy "Plans are public" on public.plans
  for select to anon, authenticated
  using (true);

alter table private.plan_settings enable row level security;

alter table public.account_plans enable row level security;
create policy "Account plans are viewable by their owner" on public.account_plans
  for select to authenticated
  using ((( SELECT auth.uid() AS uid) = user_id));

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table public.plans from public, anon, authenticated, service_role;
grant select on table public.plans to anon;
grant select on table public.plans to authenticated;
grant select on table public.plans to service_role;
revoke all on table private.plan_settings from public, anon, authenticated, service_role;
revoke all on table public.account_plans from public, anon, authenticated, service_role;
grant select on table public.account_plans to authenticated;
grant select on table public.account_plans to service_role;
revoke all on table private.submission_usage from public, anon, authenticated, service_role;
