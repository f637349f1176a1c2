-- Plans as quota tiers the database records, enforces and shows.
--
-- - `public.plans`: the tiers and their quotas, readable by everyone (the one source of the
--   numbers; src/config/plans.ts repeats them for the prerendered pricing page, and
--   tests/rls/plans.test.ts fails when the two disagree). A plan counts *projects* (distinct
--   websites, i.e. distinct `allowed_origin`s among the account's forms: forms on one site are
--   one project) and *submissions a month* (posts the endpoint stored, per account and calendar
--   month in UTC; spam caught by the honeypot is stored but not counted). `unlimited` is not
--   offered on the pricing page: operators give it to accounts that should have no quotas.
-- - `public.plan_settings`: one row. `default_plan` is the plan every new account starts on
--   (`free`); `unlimited = true` lifts every quota of the deployment (self-hosting for yourself);
--   `contact_email` is where the quota mails and Settings tell people to ask for a bigger plan.
-- - `public.account_plans`: each account's active plan (the default plan at sign-up, whatever
--   was chosen) and the plan and billing cycle chosen on the pricing page before registering
--   (from the sign-up metadata). Owners read their own row; only definer functions, triggers and
--   operators write it (`set_account_plan()`, service role).
-- - `private.submission_usage`: submissions counted per account and month, where no deletion of
--   messages or forms reaches (no foreign keys, like private.action_ledger), with the month's
--   80 % and 100 % warnings, each sent once.
-- - Projects are a standing count of the account's forms' distinct origins: a signed-in client
--   whose new form (or changed origin) would exceed its plan is refused with PT403
--   (hint plan_project_limit). The service role is not limited.
-- - accept_submission() counts the month in the post's own transaction, under the account's usage
--   row lock, right before the entry is stored: a post over the month's quota stores nothing and
--   answers {status: 'quota_exceeded', retry_after} (seconds until the count starts again). The
--   warnings are queued in the outbox (kind `quota_warning`) in the transaction that crosses
--   the threshold. Messages already accepted are never touched.

-- ------------------------------------------------------------------------------------------------
-- Plans
-- ------------------------------------------------------------------------------------------------
create table public.plans (
  id text primary key,
  name text not null,
  -- Distinct websites (allowed origins) across the account's forms; null: unlimited.
  projects integer,
  -- Non-spam posts stored per calendar month (UTC); null: unlimited.
  submissions_per_month integer,
  -- Shown on the pricing page and accepted as the plan chosen at registration.
  listed boolean not null default true,
  position integer not null,
  constraint plans_id_format check (id ~ '^[a-z][a-z0-9_]{0,29}$'),
  constraint plans_name_length check (char_length(name) between 1 and 50),
  constraint plans_projects_range check (projects is null or projects >= 0),
  constraint plans_submissions_range check (submissions_per_month is null or submissions_per_month >= 0)
);

comment on table public.plans is
  'Quota tiers: projects (distinct allowed origins) and non-spam submissions per calendar month (UTC); null is unlimited.';

insert into public.plans (id, name, projects, submissions_per_month, listed, position) values
  ('free', 'Free', 1, 100, true, 0),
  ('starter', 'Starter', 1, 1000, true, 1),
  ('pro', 'Pro', 10, 10000, true, 2),
  ('enterprise', 'Enterprise', null, 100000, true, 3),
  ('unlimited', 'Unlimited', null, null, false, 4);

create table public.plan_settings (
  id boolean primary key default true check (id),
  -- The plan every new account starts on.
  default_plan text not null default 'free' references public.plans (id),
  -- No quotas at all on this deployment (whatever each account's plan says).
  unlimited boolean not null default false,
  -- Where people ask for a bigger plan (quota mails, Settings).
  contact_email text not null default 'hello@tinyback.tools',
  constraint plan_settings_contact_email check (
    char_length(contact_email) <= 320 and contact_email ~ '^[^\s@]+@[^\s@]+$'
  )
);
insert into public.plan_settings (id) values (true);

comment on table public.plan_settings is
  'One row: the plan new accounts start on, whether the deployment sets no quotas at all, and where to ask for a bigger plan.';

create table public.account_plans (
  user_id uuid primary key references auth.users (id) on delete cascade,
  -- The plan whose quotas hold.
  plan_id text not null references public.plans (id),
  -- What the person picked on the pricing page before registering (null: nothing picked).
  chosen_plan text references public.plans (id),
  chosen_billing text,
  plan_changed_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  constraint account_plans_chosen_billing check (chosen_billing in ('monthly', 'annual'))
);

comment on table public.account_plans is
  'Each account''s active plan (the default plan at sign-up) and the plan and billing cycle chosen before registering.';

create index account_plans_plan_idx on public.account_plans (plan_id);

-- ------------------------------------------------------------------------------------------------
-- Usage (private: only the definer functions below read and write it)
-- ------------------------------------------------------------------------------------------------
create table private.submission_usage (
  -- No foreign key: deleting forms or messages never lowers the month's count.
  user_id uuid not null,
  -- The first day of the calendar month in UTC.
  month date not null,
  submissions integer not null default 0,
  warned_80_at timestamptz,
  warned_100_at timestamptz,
  primary key (user_id, month)
);

comment on table private.submission_usage is
  'Non-spam submissions stored per account and calendar month (UTC), and when the 80 % and 100 % warnings were queued.';

revoke all on table private.submission_usage from public, anon, authenticated, service_role;

-- The month a post made now is counted in: the first day of the current month in UTC.
create function private.usage_month()
returns date
language sql
stable
set search_path = ''
as $$
  select date_trunc('month', now() at time zone 'utc')::date;
$$;

-- When the current month's count starts again: the first instant of next month in UTC.
create function private.usage_resets_at()
returns timestamptz
language sql
stable
set search_path = ''
as $$
  select (date_trunc('month', now() at time zone 'utc') + interval '1 month') at time zone 'utc';
$$;

-- The plan whose quotas hold for an account: `unlimited` when the deployment sets no quotas,
-- else the account's plan (the default plan if it has no row).
create function private.effective_plan(p_user uuid)
returns public.plans
language sql
stable
set search_path = ''
as $$
  select p.* from public.plans p
   where p.id = coalesce(
     (select case when s.unlimited then 'unlimited'
                  else coalesce((select a.plan_id from public.account_plans a where a.user_id = p_user),
                                s.default_plan) end
        from public.plan_settings s where s.id),
     'free');
$$;

-- "1 project", "10 projects", "1,000 submissions" (for the sentences below).
create function private.quota_count(p_n integer, p_unit text)
returns text
language sql
immutable
set search_path = ''
as $$
  select to_char(p_n, 'FM999,999,999,990') || ' ' || p_unit || case when p_n = 1 then '' else 's' end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Sign-up: every account starts on the default plan; the chosen plan is recorded
-- ------------------------------------------------------------------------------------------------

-- Reads `plan` and `billing` from the sign-up metadata (`options.data` in supabase-js; the
-- register form sets them from the pricing card's link). Only a listed plan is kept as chosen;
-- the active plan is the deployment's default whatever was chosen.
create function public.handle_new_account_plan()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
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
      coalesce((select s.default_plan from public.plan_settings s where s.id), 'free'),
      v_chosen,
      v_billing
    )
    on conflict (user_id) do nothing;
  return new;
end;
$$;

create trigger on_auth_user_created_plan
  after insert on auth.users
  for each row execute function public.handle_new_account_plan();

-- Accounts that existed before plans start on the default plan too.
insert into public.account_plans (user_id, plan_id)
  select u.id, 'free' from auth.users u
  on conflict (user_id) do nothing;

-- This month's messages so far count (spam excepted), so the quota holds from the first day.
insert into private.submission_usage (user_id, month, submissions)
  select e.user_id, private.usage_month(), count(*)::integer
    from public.entries e
   where not e.is_spam and e.created_at >= private.usage_month()::timestamp at time zone 'utc'
   group by e.user_id;

-- A plan change (set_account_plan() or an operator's UPDATE) is dated, and the month's warnings
-- may come again for the new plan's quota.
create function public.account_plan_changed()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
begin
  if new.plan_id is distinct from old.plan_id then
    new.plan_changed_at := now();
    update private.submission_usage u
       set warned_80_at = null, warned_100_at = null
     where u.user_id = new.user_id and u.month = private.usage_month();
  end if;
  return new;
end;
$$;

create trigger account_plans_changed
  before update on public.account_plans
  for each row execute function public.account_plan_changed();

-- The operators' way to switch an account's plan (service role only; plans are switched by hand
-- on request). Returns the account's row.
create function public.set_account_plan(p_user_id uuid, p_plan text)
returns public.account_plans
language plpgsql
security definer set search_path = ''
as $$
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
$$;

-- ------------------------------------------------------------------------------------------------
-- Projects: distinct websites among the account's forms
-- ------------------------------------------------------------------------------------------------

-- Refuses a signed-in client's new form, or new origin for a form, that would make one project
-- more than its plan allows. A form on a website the account already uses is always fine. The
-- service role (no user) is not limited; a row claiming another account is left to row level
-- security, which refuses it without telling anything about that account. Runs after
-- forms_normalize (triggers fire by name), so it compares normalised origins.
create function public.enforce_plan_projects()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
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
$$;

create trigger forms_plan_projects
  before insert or update of allowed_origin on public.forms
  for each row execute function public.enforce_plan_projects();

-- ------------------------------------------------------------------------------------------------
-- Submissions a month: counted and enforced by accept_submission(), warned at 80 % and 100 %
-- ------------------------------------------------------------------------------------------------
alter table public.email_deliveries
  drop constraint email_deliveries_kind,
  add constraint email_deliveries_kind check (
    kind in ('notification', 'target_confirmation', 'newsletter_confirmation', 'autoresponse',
             'webhook_disabled', 'quota_warning')
  );

-- Queues the month's warning for `p_used` of the plan's submissions, unless it went out already:
-- 100 % once the count reaches the quota, else 80 % once it reaches four fifths of it. Each goes
-- once a month (a plan change allows them again), to the account's own confirmed address.
create function private.warn_submission_quota(
  p_user uuid,
  p_plan public.plans,
  p_usage private.submission_usage
)
returns void
language plpgsql
security definer set search_path = ''
as $$
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
  select s.contact_email into v_contact from public.plan_settings s where s.id;

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
$$;

-- Counts one stored post against the account's month, or counts nothing and returns the seconds
-- until the count starts again when the month's quota is used up (every post is refused then,
-- spam included). Spam is stored uncounted. The account's usage row stays locked until the
-- transaction ends, so racing posts see each other's counts. Returns 0 when the post may be
-- stored.
create function private.take_submission_quota(p_user uuid, p_is_spam boolean)
returns integer
language plpgsql
security definer set search_path = ''
as $$
declare
  v_plan public.plans := private.effective_plan(p_user);
  v_month date := private.usage_month();
  v_usage private.submission_usage;
begin
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
$$;

-- accept_submission() as 20261127100200_idempotent_posts.sql defined it, with the month's quota
-- taken right before the entry is stored (after every other refusal, so a refused post is never
-- counted). Same arguments; one answer more: {status: 'quota_exceeded', retry_after}.
create or replace function public.accept_submission(
  p_entry_id uuid,
  p_form_id uuid,
  p_ip_hash text,
  p_name text,
  p_email text,
  p_message text,
  p_data jsonb,
  p_is_spam boolean,
  p_notification jsonb,
  p_per_minute integer,
  p_per_day integer,
  p_form_per_minute integer default null,
  p_account_per_hour integer default null,
  p_account_per_day integer default null,
  p_idempotency_key text default null,
  p_client_counted boolean default false
)
returns jsonb
language plpgsql
security definer set search_path = ''
as $$
declare
  v_owner uuid;
  v_recipient text;
  v_notify boolean;
  v_verified boolean;
  v_epoch double precision := extract(epoch from now());
  v_second bigint := floor(extract(epoch from now()))::bigint;
  v_hits integer[];
  v_units bigint[];
  v_hour_hits integer[];
  v_hour_units bigint[];
  v_retry_after integer := 0;
  v_skipped text;
  v_delivery_id uuid;
  v_key bytea;
  v_first uuid;
begin
  -- `for key share` keeps the form from being deleted until this transaction ends; its settings
  -- are read under the same lock, so the decision to e-mail follows the form as it is now.
  select f.user_id, f.target_email, f.notify_email, f.target_verified
    into v_owner, v_recipient, v_notify, v_verified
    from public.forms f where f.id = p_form_id for key share;
  if not found then
    return jsonb_build_object('status', 'form_not_found');
  end if;

  -- A repeated key answers as the first post did. The key is claimed before anything is counted:
  -- a racing repeat waits on it here and then sees the first post's entry.
  if p_idempotency_key is not null then
    v_key := sha256(convert_to(p_idempotency_key, 'UTF8'));
    delete from private.post_idempotency i
     where i.form_id = p_form_id and i.created_at <= now() - interval '24 hours';
    insert into private.post_idempotency (form_id, key_hash, entry_id)
      values (p_form_id, v_key, p_entry_id)
      on conflict (form_id, key_hash) do nothing;
    if not found then
      select i.entry_id into v_first from private.post_idempotency i
       where i.form_id = p_form_id and i.key_hash = v_key;
      return private.repeated_post_answer(v_first);
    end if;
  end if;

  -- Per client (unless counted before the CAPTCHA check).
  if not p_client_counted then
    v_retry_after := private.take_client_allowance(p_form_id, p_ip_hash, p_per_minute, p_per_day);
    if v_retry_after > 0 then
      -- Nothing was stored: the key is free again for a later try.
      delete from private.post_idempotency i where i.form_id = p_form_id and i.key_hash = v_key;
      return jsonb_build_object('status', 'rate_limited', 'retry_after', v_retry_after);
    end if;
  end if;

  -- Per form, all clients together (a backstop when addresses are cheap): the posts of the last
  -- sixty seconds, by second, under the form's counter row lock so racing posts see each other.
  if p_form_per_minute is not null then
    select c.hits, c.units into v_hits, v_units
      from public.form_post_counts c where c.form_id = p_form_id for update;
    if not found then
      insert into public.form_post_counts (form_id) values (p_form_id) on conflict do nothing;
      select c.hits, c.units into v_hits, v_units
        from public.form_post_counts c where c.form_id = p_form_id for update;
    end if;
    if public.ring_count(v_hits, v_units, v_second - 59) >= p_form_per_minute then
      delete from private.post_idempotency i where i.form_id = p_form_id and i.key_hash = v_key;
      return jsonb_build_object(
        'status', 'rate_limited',
        'retry_after', greatest(
          ceil(public.ring_oldest(v_hits, v_units, v_second - 59) + 60 - v_epoch)::integer, 1)
      );
    end if;
    update public.form_post_counts c
       set (hits, units) = (select a.hits, a.units from public.ring_add(v_hits, v_units, v_second, 60, 1) a)
     where c.form_id = p_form_id;
  end if;

  -- Whether to e-mail, and if not, why. Spam is never e-mailed (is_spam says so).
  if not p_is_spam and p_notification is not null then
    if not v_notify then
      v_skipped := 'off';
    elsif not v_verified then
      v_skipped := 'unverified';
    elsif p_account_per_hour is not null or p_account_per_day is not null then
      -- One decision at a time per account (its counter row's lock, held to the end), so racing
      -- posts cannot both take the last slot.
      select c.minute_hits, c.minute_units, c.hour_hits, c.hour_units
        into v_hits, v_units, v_hour_hits, v_hour_units
        from public.notification_counts c where c.user_id = v_owner for update;
      if not found then
        insert into public.notification_counts (user_id) values (v_owner) on conflict do nothing;
        select c.minute_hits, c.minute_units, c.hour_hits, c.hour_units
          into v_hits, v_units, v_hour_hits, v_hour_units
          from public.notification_counts c where c.user_id = v_owner for update;
      end if;
      if p_account_per_hour is not null and public.ring_count(
           v_hits, v_units, floor(v_epoch / 60)::bigint - 60) >= p_account_per_hour then
        v_skipped := 'hourly_limit';
      elsif p_account_per_day is not null and public.ring_count(
           v_hour_hits, v_hour_units, floor(v_epoch / 3600)::bigint - 24) >= p_account_per_day then
        v_skipped := 'daily_limit';
      end if;
    end if;
  end if;

  -- The account's month (plan quota): last, so that a post refused for any other reason is never
  -- counted; in this transaction, so the count and the entry commit together.
  v_retry_after := private.take_submission_quota(v_owner, p_is_spam);
  if v_retry_after > 0 then
    delete from private.post_idempotency i where i.form_id = p_form_id and i.key_hash = v_key;
    return jsonb_build_object('status', 'quota_exceeded', 'retry_after', v_retry_after);
  end if;

  -- The visitor's network, for the autoresponder's per-visitor cap (its trigger reads it in this
  -- transaction only).
  perform set_config('tinyback.client', coalesce(p_ip_hash, ''), true);

  -- The entry's owner is set by the entries_set_owner trigger, from the form.
  insert into public.entries (id, form_id, name, email, message, data, is_spam, notification_skipped)
    values (p_entry_id, p_form_id, p_name, p_email, p_message, coalesce(p_data, '{}'::jsonb),
            p_is_spam, v_skipped);

  if not p_is_spam and p_notification is not null and v_skipped is null then
    insert into public.email_deliveries
        (kind, entry_id, user_id, recipient, subject, reply_to, text_body, html_body)
      values (
        'notification',
        p_entry_id,
        v_owner,
        v_recipient,
        p_notification ->> 'subject',
        nullif(p_notification ->> 'reply_to', ''),
        p_notification ->> 'text',
        p_notification ->> 'html'
      )
      returning id into v_delivery_id;
    perform public.count_notification_send(v_owner, now());
  end if;

  return jsonb_build_object(
    'status', 'accepted',
    'entry_id', p_entry_id,
    'delivery_id', v_delivery_id,
    'notification_skipped', v_skipped
  );
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- What the dashboard shows: the caller's plan and usage
-- ------------------------------------------------------------------------------------------------

-- The signed-in caller's plan, the plan chosen at registration, the quotas that hold (null:
-- unlimited), projects in use, this month's submissions, when the count starts again, which
-- warnings went out, and where to ask for a bigger plan.
create function public.plan_usage()
returns jsonb
language plpgsql
stable
security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_account public.account_plans;
  v_plan public.plans;
  v_effective public.plans;
  v_settings public.plan_settings;
  v_usage private.submission_usage;
begin
  if v_uid is null then
    raise exception 'Sign in to see your plan.' using errcode = '42501';
  end if;
  select s.* into v_settings from public.plan_settings s where s.id;
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
$$;

-- ------------------------------------------------------------------------------------------------
-- Row level security and grants
-- ------------------------------------------------------------------------------------------------
alter table public.plans enable row level security;
alter table public.plan_settings enable row level security;
alter table public.account_plans enable row level security;

create policy "Plans are public"
  on public.plans for select
  to anon, authenticated
  using (true);

create policy "Account plans are viewable by their owner"
  on public.account_plans for select
  to authenticated
  using ((select auth.uid()) = user_id);

-- plans: read by everyone, written by migrations and operators only.
revoke all on table public.plans from anon, authenticated, service_role;
grant select on table public.plans to anon, authenticated, service_role;
-- plan_settings: the service role only (no policy, no grant to clients).
revoke all on table public.plan_settings from anon, authenticated, service_role;
grant select, update on table public.plan_settings to service_role;
-- account_plans: the owner reads; definer functions and triggers write.
revoke all on table public.account_plans from anon, authenticated, service_role;
grant select on table public.account_plans to authenticated, service_role;

revoke execute on function public.handle_new_account_plan() from public, anon, authenticated, service_role;
revoke execute on function public.account_plan_changed() from public, anon, authenticated, service_role;
revoke execute on function public.enforce_plan_projects() from public, anon, authenticated, service_role;
revoke execute on function public.set_account_plan(uuid, text) from public, anon, authenticated;
grant execute on function public.set_account_plan(uuid, text) to service_role;
revoke execute on function public.plan_usage() from public, anon;
grant execute on function public.plan_usage() to authenticated;

revoke execute on function private.usage_month() from public, anon, authenticated, service_role;
revoke execute on function private.usage_resets_at() from public, anon, authenticated, service_role;
revoke execute on function private.effective_plan(uuid) from public, anon, authenticated, service_role;
revoke execute on function private.quota_count(integer, text) from public, anon, authenticated, service_role;
revoke execute on function private.warn_submission_quota(uuid, public.plans, private.submission_usage)
  from public, anon, authenticated, service_role;
revoke execute on function private.take_submission_quota(uuid, boolean)
  from public, anon, authenticated, service_role;

-- accept_submission() keeps its grants (create or replace): the service role only.
