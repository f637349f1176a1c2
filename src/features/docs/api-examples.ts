// The read API's curl examples on the docs page, built from the instance's Supabase URL so a
// copied command works against this deployment as it is.
import { API_KEYS } from './api-facts';
import { FORM_ID_PLACEHOLDER } from './examples';

export const KEY_PLACEHOLDER = `${API_KEYS.prefix}YOUR_KEY`;
const ENTRY_ID_PLACEHOLDER = 'ENTRY-ID';

/** The base URL of the read API: {SUPABASE_URL}/functions/v1/forms-api. */
export function apiBaseUrl(supabaseUrl: string): string {
  return `${supabaseUrl.replace(/\/+$/, '')}/functions/v1/forms-api`;
}

const auth = `-H "Authorization: Bearer ${KEY_PLACEHOLDER}"`;

export function listFormsExample(supabaseUrl: string): string {
  return `curl ${apiBaseUrl(supabaseUrl)}/forms \\
  ${auth}`;
}

export function listEntriesExample(supabaseUrl: string): string {
  const url = `${apiBaseUrl(supabaseUrl)}/forms/${FORM_ID_PLACEHOLDER}/entries`;
  return `# The first page: entries since November 1st, oldest first
curl "${url}?since=2026-11-01&limit=${API_KEYS.defaultPageSize}" \\
  ${auth}

# The next page, and later on only what arrived since: pass back next_cursor
curl "${url}?cursor=NEXT_CURSOR" \\
  ${auth}`;
}

export function deleteEntryExample(supabaseUrl: string): string {
  return `curl -X DELETE ${apiBaseUrl(supabaseUrl)}/forms/${FORM_ID_PLACEHOLDER}/entries/${ENTRY_ID_PLACEHOLDER} \\
  ${auth}`;
}

/** What a page of entries looks like. */
export const ENTRIES_ANSWER = `{
  "ok": true,
  "entries": [
    {
      "id": "6f1c2b9e-3a4d-4e5f-8a6b-7c8d9e0f1a2b",
      "form_id": "${FORM_ID_PLACEHOLDER}",
      "name": "Ada Lovelace",
      "email": "ada@example.com",
      "message": "Hello!",
      "data": { "company": "Analytical Engines" },
      "is_spam": false,
      "read_at": null,
      "created_at": "2026-11-24T09:30:00.123456+00:00"
    }
  ],
  "next_cursor": "djF8MjAyNi0xMS0yNFQwOTozMDowMC4xMjM0NTYrMDA6MDB8NmYxYzJi…",
  "has_more": false
}`;
