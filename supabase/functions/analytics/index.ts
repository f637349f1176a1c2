// Entry point of the `analytics` Edge Function: wires the direct database connection and bowser's
// user-agent parser into the request handler. Everything else lives in pure modules.
import Bowser from 'npm:bowser@2.15.1';
import { connectDatabase, databaseUrlFromEnv } from '../_shared/database.ts';
import { handleRequest, type AnalyticsDeps } from './handler.ts';
import { collectEvent } from './store.ts';

const env = (name: string) => Deno.env.get(name);

// Every event is one call of analytics_collect() straight to Postgres (_shared/database.ts).
const db = connectDatabase(databaseUrlFromEnv(env));

const deps: AnalyticsDeps = {
  collect: (input) => collectEvent(db, input),
  parseAgent: (userAgent) => Bowser.parse(userAgent),
  log: (message) => console.error(`analytics: ${message}`),
};

Deno.serve((req) => handleRequest(req, deps));
