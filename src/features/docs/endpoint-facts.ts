// What the docs say about the form endpoint, taken from the endpoint's own modules so the page
// cannot drift from what the function does: limits, retry schedule, special fields and the
// status/code of every refusal.
import {
  CONFIRMATIONS,
  DELIVERY,
  IDEMPOTENCY,
  LIMITS,
  SPECIAL_FIELDS,
} from '../../../supabase/functions/_shared/limits.ts';
import { ERRORS } from '../../../supabase/functions/forms/errors.ts';

// One formatter for every count: `toLocaleString('en-US')` builds a new one on each call, which the
// docs page did some thirty times while it rendered. Declared before this module's constants,
// which format counts as the module loads.
const countFormat = new Intl.NumberFormat('en-US');

export { CONFIRMATIONS, DELIVERY, IDEMPOTENCY, LIMITS, SPECIAL_FIELDS };

export interface ErrorRow {
  status: number;
  code: string;
  /** One sentence; inline code is marked `like this` and rendered as a code chip. */
  when: string;
  retryAfter: boolean;
}

/** Every refusal a site owner can meet, in status order; status and code come from the function. */
export const ERROR_ROWS: ErrorRow[] = [
  {
    ...pick(ERRORS.captchaRequired()),
    when: 'The form has CAPTCHA on and the post carries no token (see CAPTCHA).',
  },
  {
    ...pick(ERRORS.invalidBody('')),
    when: 'The body cannot be parsed (broken JSON, truncated multipart, invalid UTF-8).',
  },
  {
    ...pick(ERRORS.originNotAllowed()),
    when: 'The `Origin` (or `Referer`) of the request is not the form’s allowed origin.',
  },
  {
    ...pick(ERRORS.captchaFailed()),
    when: 'The CAPTCHA provider refused the token (wrong, expired or already used).',
  },
  { ...pick(ERRORS.formNotFound()), when: 'No form has this id.' },
  {
    ...pick(ERRORS.methodNotAllowed()),
    when: 'Anything but `POST` (and the `OPTIONS` preflight).',
  },
  {
    ...pick(ERRORS.tooLarge('')),
    when: `The body is over ${formatBytes(LIMITS.maxBodyBytes)} or has more than ${formatCount(LIMITS.maxFields)} fields.`,
  },
  {
    ...pick(ERRORS.unsupportedType()),
    when: 'The `Content-Type` is not form-urlencoded, `multipart/form-data` or JSON.',
  },
  {
    ...pick(ERRORS.fileUpload()),
    when: 'The multipart body contains a file and the form’s uploads are off (see File uploads).',
  },
  {
    ...pick(ERRORS.fileTooLarge('', 0)),
    when: 'A file is larger than the form allows. `fields` names the file’s field and `limit` is the limit in bytes; nothing was stored.',
  },
  {
    ...pick(ERRORS.filesTooLarge('', 0)),
    when: 'The files together are larger than the form allows per submission (`limit`, in bytes); nothing was stored.',
  },
  {
    ...pick(ERRORS.storageFull()),
    when: 'The files do not fit in the form owner’s storage quota; nothing was stored.',
  },
  {
    ...pick(ERRORS.fileTypeNotAllowed('')),
    when: 'A file’s content is of a kind the form does not take (judged from its bytes, never its name or type); nothing was stored.',
  },
  {
    ...pick(ERRORS.invalidFields({})),
    when: 'A field breaks a rule, e.g. an email that is not an e-mail address or a value that is too long. `fields` says which.',
  },
  {
    ...pick(ERRORS.tooManyFiles('', 0)),
    when: 'More files than the form allows (`limit`); nothing was stored.',
  },
  {
    ...pick(ERRORS.rateLimited(60)),
    when: 'Too many submissions from one network; wait for `Retry-After` seconds.',
  },
  {
    ...pick(ERRORS.quotaExceeded(60)),
    when: 'The form’s owner has used every submission their plan allows this month; nothing was stored. `Retry-After` is the time until the count starts again (the 1st of next month, UTC).',
  },
  {
    ...pick(ERRORS.captchaMisconfigured()),
    when: 'The CAPTCHA provider refused the form’s secret key; the owner must fix the keys.',
  },
  {
    ...pick(ERRORS.captchaUnavailable()),
    when: 'The CAPTCHA provider did not answer in time. Nothing was stored: retry after `Retry-After` seconds.',
  },
  {
    ...pick(ERRORS.storageFailed()),
    when: 'The submission could not be saved. Nothing was stored: retry after `Retry-After` seconds.',
  },
  // Stable: rows of one status keep the order above.
].sort((a, b) => a.status - b.status);

function pick(error: { status: number; code: string; retryAfter?: number }) {
  return { status: error.status, code: error.code, retryAfter: error.retryAfter !== undefined };
}

/** 65536 → "64 KiB". */
export function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${formatCount(bytes)} bytes`;
}

/** 10000 → "10,000". */
export function formatCount(n: number): string {
  return countFormat.format(n);
}

/** 30 → "30 seconds", 21600 → "6 hours". */
export function formatSeconds(seconds: number): string {
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return `${formatCount(n)} ${unit}${n === 1 ? '' : 's'}`;
    }
  }
  return `${formatCount(seconds)} second${seconds === 1 ? '' : 's'}`;
}
