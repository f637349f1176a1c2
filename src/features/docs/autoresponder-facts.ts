// The autoresponder's caps and bounds as the docs state them: the shared limits module's
// AUTORESPONDER, which states what the database enforces (queue_autoresponse() in
// supabase/migrations/20261127100300_autoresponder_bounded.sql); tests/endpoint/autoresponder.test.ts
// drives a real post against each, so the page cannot drift from what is sent.
export { AUTORESPONDER } from '../../../supabase/functions/_shared/limits.ts';

/** Days a sent (or failed) reply's copy stays in the outbox at most (sweep_retention()). */
export const AUTORESPONSE_COPY_DAYS = 30;
