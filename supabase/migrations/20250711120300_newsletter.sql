-- Newsletter subscribers: e-mail addresses left in the site's sign-up boxes. Anyone may
-- subscribe; only the service role (the operator's tools) may read the list.

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
create table public.newsletter_subscribers (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  created_at timestamptz not null default now(),
  constraint newsletter_subscribers_email_format check (
    char_length(email) <= 320
    and email ~* '^[a-z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$'
  )
);

comment on table public.newsletter_subscribers is 'Newsletter sign-ups; write-only for visitors.';

-- One subscription per address, whatever its case.
create unique index newsletter_subscribers_email_key on public.newsletter_subscribers (lower(email));

-- ------------------------------------------------------------------------------------------------
-- Triggers
-- ------------------------------------------------------------------------------------------------

-- Subscribing twice is not a mistake the visitor should see, and telling them "already
-- subscribed" would reveal who is on the list. Visitors cannot read the table, so they cannot use
-- ON CONFLICT; instead a repeated address is skipped silently (the insert affects no row and the
-- API still answers 201). The advisory lock makes two simultaneous sign-ups of the same address
-- wait for each other, so the second sees the first and is skipped instead of failing.
create function public.skip_existing_subscriber()
returns trigger
language plpgsql
security definer set search_path = ''
as $$
begin
  new.email := btrim(new.email);
  new.created_at := now();
  perform pg_advisory_xact_lock(hashtextextended('newsletter:' || lower(new.email), 0));
  if exists (
    select 1 from public.newsletter_subscribers s where lower(s.email) = lower(new.email)
  ) then
    return null;
  end if;
  return new;
end;
$$;

create trigger newsletter_subscribers_skip_existing
  before insert on public.newsletter_subscribers
  for each row execute function public.skip_existing_subscriber();

revoke execute on function public.skip_existing_subscriber() from public, anon, authenticated;

-- ------------------------------------------------------------------------------------------------
-- Row level security
-- ------------------------------------------------------------------------------------------------
-- Insert only. Without a select policy nobody but the service role reads the list.
alter table public.newsletter_subscribers enable row level security;

create policy "Visitors can subscribe to the newsletter"
  on public.newsletter_subscribers for insert
  to anon
  with check (true);

create policy "Users can subscribe to the newsletter"
  on public.newsletter_subscribers for insert
  to authenticated
  with check (true);

-- ------------------------------------------------------------------------------------------------
-- Grants
-- ------------------------------------------------------------------------------------------------
revoke all on table public.newsletter_subscribers from anon, authenticated;
grant insert (email) on table public.newsletter_subscribers to anon, authenticated;
grant all on table public.newsletter_subscribers to service_role;
