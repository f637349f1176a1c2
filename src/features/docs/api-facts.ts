// What the docs say about the read API (`forms-api`), taken from the function's own modules so the
// page cannot drift from what it does: key format, limits, and the status/code of every refusal.
import { API_KEYS } from '../../../supabase/functions/_shared/limits.ts';
import { API_ERRORS, type ApiError } from '../../../supabase/functions/forms-api/errors.ts';

export { API_KEYS };

export interface ApiErrorRow {
  status: number;
  code: string;
  when: string;
}

const pick = (err: ApiError) => ({ status: err.status, code: err.code });

/** Every refusal of the read API, in status order; status and code come from the function. */
export const API_ERROR_ROWS: ApiErrorRow[] = [
  {
    ...pick(API_ERRORS.invalidQuery({})),
    when: '`since`, `cursor` or `limit` is not valid; `fields` names each problem.',
  },
  {
    ...pick(API_ERRORS.unauthorized()),
    when: 'No key, a malformed key, or a key that does not exist or was revoked — all alike.',
  },
  {
    ...pick(API_ERRORS.insufficientScope()),
    when: 'A read-only key tried to delete.',
  },
  {
    ...pick(API_ERRORS.formNotFound()),
    when: 'No form with this id belongs to the key’s owner (another owner’s form answers the same).',
  },
  {
    ...pick(API_ERRORS.entryNotFound()),
    when: 'The entry is not in this form (or already deleted).',
  },
  {
    ...pick(API_ERRORS.methodNotAllowed('GET')),
    when: 'The method does not fit the address; see `Allow`.',
  },
  {
    ...pick(API_ERRORS.rateLimited(1)),
    when: `More than ${API_KEYS.requestsPerMinute} requests in a minute with one key, or ${API_KEYS.requestsPerMinutePerAccount} with all of an account’s keys together; wait for \`Retry-After\` seconds.`,
  },
  {
    ...pick(API_ERRORS.storageFailed()),
    when: 'A passing storage problem; retry after `Retry-After`.',
  },
];
