// What the read API works with, whatever stores it: an API key's identity and scope, the forms
// and entries it serves (their JSON shape), and a page request of entries.
import type { Cursor } from './cursor.ts';

export type KeyScope = 'read_only' | 'read_write';

export interface KeyIdentity {
  keyId: string;
  userId: string;
  scope: KeyScope;
  /** The hash the database holds, compared again here in constant time. */
  keyHash: string;
}

export type AuthResult =
  | { status: 'ok'; identity: KeyIdentity }
  | { status: 'unauthorized' }
  | { status: 'rate_limited'; retryAfter: number };

export interface ApiForm {
  id: string;
  name: string;
  target_email: string;
  allowed_origin: string;
  created_at: string;
}

export interface ApiEntry {
  id: string;
  form_id: string;
  name: string | null;
  email: string | null;
  message: string | null;
  data: Record<string, unknown>;
  is_spam: boolean;
  read_at: string | null;
  created_at: string;
}

export interface ListEntriesInput {
  userId: string;
  formId: string;
  since: string | null;
  after: Cursor | null;
  /** Rows wanted; the store returns up to limit + 1 so the handler can tell if more follow. */
  limit: number;
}

/** What the API reads and changes, each call answering for the key owner's rows only. */
export interface ApiStore {
  /** Finds the live key with this hash and counts the request; unknown and revoked alike. */
  authenticate(keyHash: string): Promise<AuthResult>;
  listForms(userId: string): Promise<ApiForm[]>;
  listEntries(
    input: ListEntriesInput,
  ): Promise<{ status: 'ok'; entries: ApiEntry[] } | { status: 'form_not_found' }>;
  deleteEntry(
    userId: string,
    formId: string,
    entryId: string,
  ): Promise<'deleted' | 'form_not_found' | 'entry_not_found'>;
}
