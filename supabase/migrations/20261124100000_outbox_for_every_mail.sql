-- The e-mail outbox carries every mail the product sends, not only submission notifications:
-- confirmations of a form's target address and of a newsletter subscription go through the same
-- queue, lease and retries. A job names its kind and, where one exists, the account it is sent
-- for (the per-account sending caps count by it).

-- ------------------------------------------------------------------------------------------------
-- Tables
-- ------------------------------------------------------------------------------------------------
alter table public.email_deliveries
  alter column entry_id drop not null,
  add column kind text not null default 'notification',
  add column user_id uuid references auth.users (id) on delete cascade,
  add constraint email_deliveries_kind check (
    kind in ('notification', 'target_confirmation', 'newsletter_confirmation')
  ),
  -- A notification always belongs to an entry; other mails never do.
  add constraint email_deliveries_entry_matches_kind check (
    (kind = 'notification') = (entry_id is not null)
  );

comment on column public.email_deliveries.kind is
  'notification (of an entry), target_confirmation (of a form''s address) or newsletter_confirmation.';
comment on column public.email_deliveries.user_id is
  'The account the mail is sent for (null for newsletter mail); per-account caps count by it.';

-- Existing notifications belong to their entry's owner.
update public.email_deliveries d
   set user_id = e.user_id
  from public.entries e
 where e.id = d.entry_id and d.user_id is null;

-- The per-account caps count an account's recent mail.
create index email_deliveries_user_created_idx
  on public.email_deliveries (user_id, created_at desc)
  where user_id is not null;
