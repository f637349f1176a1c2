-- The subscribers table's pages and the export read a list newest first.
CREATE INDEX list_subscribers_list_created_idx ON public.list_subscribers USING btree (list_id, created_at DESC, id DESC);
