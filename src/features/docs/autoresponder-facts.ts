// The autoresponder's caps as the docs state them. They are set in the database
// (supabase/migrations/20261124170000_autoresponder_retention.sql, queue_autoresponse());
// tests/endpoint/autoresponder.test.ts drives a real post against each, so the two cannot drift.
export const AUTORESPONDER_CAPS = { perHour: 50, perDay: 200, perRecipientPerDay: 5 } as const;
