-- The e-mail jobs under a lease, so a batch's finish and the sweep of expired leases no longer read
-- every queued job (supabase/schemas/05-outbox.sql).
CREATE INDEX email_deliveries_leased_idx ON public.email_deliveries USING btree (locked_until) WHERE (status = 'sending'::text);
