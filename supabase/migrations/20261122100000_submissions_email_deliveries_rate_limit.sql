-- Submissions: what the `forms` Edge Function needs beyond forms and entries. A per-form,
-- per-client rate limit kept in Postgres (so it holds across function instances), the e-mail
-- outbox `email_deliveries`, and the service-role-only functions that accept a submission in one
-- transaction and hand out delivery jobs under a lease.

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------

-- One row per form, client and window kind; a row whose window has passed is reset in place, so
-- the table stays as small as the set of recent clients. The client is known only as a salted
-- hash of its IP address.
create table public.submission_rate_limits (
  form_id uuid not null references public.forms (id) on delete cascade,
  ip_hash text not null,
  window_kind text not null,
  window_start timestamptz not null,
  hits integer not null default 0,
  primary key (form_id, ip_hash, window_kind),
  constraint submission_rate_limits_window_kind check (window_kind in ('minute', 'day'))
);

comment on table public.submission_rate_limits is
  'Submissions per form, client (salted IP hash) and window; written only by accept_submission().';

-- The outbox: one notification e-mail per entry, rendered when the entry is stored so that a retry
-- sends exactly what the first attempt would have. `sending` is a lease held by one worker until
-- `locked_until`; after it expires another worker may take the job over.
create table public.email_deliveries (
  id uuid primary key default gen_random_uuid(),
  entry_id uuid not null references public.entries (id) on delete cascade,
  recipient text not null,
  subject text not null,
  reply_to text,
  text_body text not null,
  html_body text not null,
  status text not null default 'pending',
  attempts integer not null default 0,
  last_error text,
  next_attempt_at timestamptz not null default now(),
  locked_until timestamptz,
  lease uuid,
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  constraint email_deliveries_status check (status in ('pending', 'sending', 'sent', 'failed')),
  -- Headers are composed from these; a line break could smuggle in another header.
  constraint email_deliveries_headers_single_line check (
    recipient !~ '[\r\n]' and subject !~ '[\r\n]' and coalesce(reply_to, '') !~ '[\r\n]'
  )
);

comment on table public.email_deliveries is
  'Notification e-mail outbox of the form endpoint; owners read the status of their entries'' mail.';

-- One notification per entry, whatever happens.
create unique index email_deliveries_entry_id_key on public.email_deliveries (entry_id);
-- The workers' queue: due jobs in order.
create index email_deliveries_due_idx on public.email_deliveries (next_attempt_at)
  where status in ('pending', 'sending');

-- ------------------------------------------------------------------------------------------------
-- Functions (called by the form endpoint with the service role only)
-- ------------------------------------------------------------------------------------------------

-- Checks and counts the rate limit, stores the entry and queues its e-mail, all in the caller's
-- single transaction. The limits are arguments so supabase/functions/_shared/limits.ts stays the
-- one source of truth. Returns {status: accepted, entry_id, delivery_id} or
-- {status: rate_limited, retry_after} or {status: form_not_found}.
create function public.accept_submission(
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
  p_per_day integer
)
returns jsonb
language plpgsql
security definer set search_path = ''
as $$
declare
  v_recipient text;
  v_minute timestamptz := date_trunc('minute', now());
  v_day timestamptz := date_trunc('day', now());
  v_minute_hits integer;
  v_day_hits integer;
  v_retry_after integer := 0;
  v_delivery_id uuid;
begin
  -- `for key share` keeps the form from being deleted until this transaction ends.
  select f.target_email into v_recipient
    from public.forms f where f.id = p_form_id for key share;
  if not found then
    return jsonb_build_object('status', 'form_not_found');
  end if;

  -- Upserting locks this client's counters, so concurrent posts from one client queue up here
  -- and each sees the count the previous one left.
  insert into public.submission_rate_limits as r (form_id, ip_hash, window_kind, window_start)
    values (p_form_id, p_ip_hash, 'minute', v_minute)
    on conflict (form_id, ip_hash, window_kind) do update
      set hits = case when r.window_start = excluded.window_start then r.hits else 0 end,
          window_start = excluded.window_start
    returning hits into v_minute_hits;
  insert into public.submission_rate_limits as r (form_id, ip_hash, window_kind, window_start)
    values (p_form_id, p_ip_hash, 'day', v_day)
    on conflict (form_id, ip_hash, window_kind) do update
      set hits = case when r.window_start = excluded.window_start then r.hits else 0 end,
          window_start = excluded.window_start
    returning hits into v_day_hits;

  if v_day_hits >= p_per_day then
    v_retry_after := ceil(extract(epoch from (v_day + interval '1 day' - now())));
  elsif v_minute_hits >= p_per_minute then
    v_retry_after := ceil(extract(epoch from (v_minute + interval '1 minute' - now())));
  end if;
  if v_retry_after > 0 then
    return jsonb_build_object('status', 'rate_limited', 'retry_after', greatest(v_retry_after, 1));
  end if;

  update public.submission_rate_limits
     set hits = hits + 1
   where form_id = p_form_id and ip_hash = p_ip_hash;
  -- Forget clients not seen for two days (cheap: the primary key starts with form_id).
  delete from public.submission_rate_limits
   where form_id = p_form_id and window_start < now() - interval '2 days';

  -- The entry's owner is set by the entries_set_owner trigger, from the form.
  insert into public.entries (id, form_id, name, email, message, data, is_spam)
    values (p_entry_id, p_form_id, p_name, p_email, p_message, coalesce(p_data, '{}'::jsonb), p_is_spam);

  if not p_is_spam and p_notification is not null then
    insert into public.email_deliveries (entry_id, recipient, subject, reply_to, text_body, html_body)
      values (
        p_entry_id,
        v_recipient,
        p_notification ->> 'subject',
        nullif(p_notification ->> 'reply_to', ''),
        p_notification ->> 'text',
        p_notification ->> 'html'
      )
      returning id into v_delivery_id;
  end if;

  return jsonb_build_object('status', 'accepted', 'entry_id', p_entry_id, 'delivery_id', v_delivery_id);
end;
$$;

-- Leases due jobs (or only `p_id`) to the calling worker. `for update skip locked` makes racing
-- workers take disjoint jobs; a job's lease also moves its next_attempt_at past the lease, so a
-- worker that starts later sees it as not due. Jobs whose lease ran out with no attempts left are
-- given up first.
create function public.claim_email_deliveries(
  p_id uuid,
  p_limit integer,
  p_lease_seconds integer,
  p_max_attempts integer
)
returns table (
  id uuid,
  lease uuid,
  attempts integer,
  recipient text,
  subject text,
  reply_to text,
  text_body text,
  html_body text
)
language plpgsql
security definer set search_path = ''
as $$
#variable_conflict use_column
begin
  update public.email_deliveries d
     set status = 'failed', lease = null, locked_until = null,
         last_error = coalesce(d.last_error, 'The sending worker stopped before finishing.')
   where d.status = 'sending' and d.locked_until <= now() and d.attempts >= p_max_attempts;

  return query
  with due as (
    select d.id
      from public.email_deliveries d
     where d.status in ('pending', 'sending')
       and d.next_attempt_at <= now()
       and (p_id is null or d.id = p_id)
     order by d.next_attempt_at
     limit greatest(p_limit, 0)
     for update skip locked
  )
  update public.email_deliveries d
     set status = 'sending',
         attempts = d.attempts + 1,
         lease = gen_random_uuid(),
         locked_until = now() + make_interval(secs => p_lease_seconds),
         next_attempt_at = now() + make_interval(secs => p_lease_seconds)
    from due
   where d.id = due.id
  returning d.id, d.lease, d.attempts, d.recipient, d.subject, d.reply_to, d.text_body, d.html_body;
end;
$$;

-- Records the outcome of one attempt. Only the holder of the current lease may: a worker whose
-- lease expired (and whose job another worker took) changes nothing. Returns whether it counted.
create function public.finish_email_delivery(
  p_id uuid,
  p_lease uuid,
  p_sent boolean,
  p_error text,
  p_retry_in_seconds integer
)
returns boolean
language plpgsql
security definer set search_path = ''
as $$
#variable_conflict use_column
begin
  update public.email_deliveries d
     set status = case
                    when p_sent then 'sent'
                    when p_retry_in_seconds is null then 'failed'
                    else 'pending'
                  end,
         sent_at = case when p_sent then now() else d.sent_at end,
         last_error = case when p_sent then d.last_error else left(p_error, 1000) end,
         next_attempt_at = case
                             when p_sent or p_retry_in_seconds is null then d.next_attempt_at
                             else now() + make_interval(secs => p_retry_in_seconds)
                           end,
         lease = null,
         locked_until = null
   where d.id = p_id and d.lease = p_lease and d.status = 'sending';
  return found;
end;
$$;

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
alter table public.submission_rate_limits enable row level security;
-- No policies: only the definer functions above touch the counters.

alter table public.email_deliveries enable row level security;

create policy "Deliveries are viewable by the owner of their entry"
  on public.email_deliveries for select
  to authenticated
  using (
    exists (
      select 1 from public.entries e
       where e.id = email_deliveries.entry_id and e.user_id = (select auth.uid())
    )
  );

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table public.submission_rate_limits from anon, authenticated;
grant all on table public.submission_rate_limits to service_role;

revoke all on table public.email_deliveries from anon, authenticated;
grant select on table public.email_deliveries to authenticated;
grant all on table public.email_deliveries to service_role;

revoke execute on function public.accept_submission(uuid, uuid, text, text, text, text, jsonb, boolean, jsonb, integer, integer)
  from public, anon, authenticated;
revoke execute on function public.claim_email_deliveries(uuid, integer, integer, integer)
  from public, anon, authenticated;
revoke execute on function public.finish_email_delivery(uuid, uuid, boolean, text, integer)
  from public, anon, authenticated;
grant execute on function public.accept_submission(uuid, uuid, text, text, text, text, jsonb, boolean, jsonb, integer, integer)
  to service_role;
grant execute on function public.claim_email_deliveries(uuid, integer, integer, integer) to service_role;
grant execute on function public.finish_email_delivery(uuid, uuid, boolean, text, integer) to service_role;
