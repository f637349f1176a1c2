-- The ring helpers of the counters before 20261212100000_cheaper_accept.sql (a unit beside every
-- slot) are called by nothing since: the counters use private.ring_take(), ring_sum() and
-- ring_first(). Their behaviour is kept as a model in tests/endpoint/accept-races.test.ts, which
-- checks the new helpers against it.
drop function if exists "public"."ring_add"(p_hits integer[], p_units bigint[], p_unit bigint, p_size integer, p_by integer, OUT hits integer[], OUT units bigint[]);

drop function if exists "public"."ring_count"(p_hits integer[], p_units bigint[], p_since bigint);

drop function if exists "public"."ring_oldest"(p_hits integer[], p_units bigint[], p_since bigint);
