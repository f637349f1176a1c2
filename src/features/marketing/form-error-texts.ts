// What the refusal page (/form-error) says for each refusal of the form endpoint, in plain words
// for the visitor of a customer's site: what happened, and what they can do about it. Keyed by the
// endpoint's own codes (supabase/functions/forms/errors.ts), so a new refusal there fails the type
// check here until it has its words; a code this page does not know gets the general text.
import type { ErrorCode } from '../../../supabase/functions/forms/errors';
import { EMPTY_SUBMISSION } from '../../../supabase/functions/forms/refusal-page';

/**
 * What the visitor can do: correct the form and send it again (`fix`), send it again later
 * (`wait`), or nothing here — the site's owner must act (`owner`).
 */
type RefusalRemedy = 'fix' | 'wait' | 'owner';

export interface RefusalText {
  title: string;
  /** What happened, one or two sentences. */
  body: string;
  remedy: RefusalRemedy;
  /** With `fix`: what to do on the form, after going back. */
  fix?: string;
  /** Nothing was typed (an empty form): no word about keeping it. */
  nothingTyped?: boolean;
}

/** Every code the page knows (`quota_exceeded`: a form over its owner's monthly allowance). */
export type RefusalPageCode = ErrorCode | typeof EMPTY_SUBMISSION | 'quota_exceeded';

const NOT_SENT = 'Your message was not sent.';
const OWNER =
  'This is a problem with the website, not with what you typed: its owner needs to fix it. Keep a copy of your message and reach them another way for now.';

export const GENERAL_REFUSAL: RefusalText = {
  title: 'Your message could not be sent',
  body: `${NOT_SENT} If it keeps happening, reach the website’s owner another way.`,
  remedy: 'fix',
  fix: 'Try sending the form again.',
};

export const REFUSAL_TEXTS: Record<RefusalPageCode, RefusalText> = {
  invalid_fields: {
    title: 'Some answers need another look',
    body: `${NOT_SENT} A field is not filled in as the form expects — an e-mail address without an @, say, or an answer that is too long.`,
    remedy: 'fix',
    fix: 'Correct it and send the form again.',
  },
  [EMPTY_SUBMISSION]: {
    title: 'The form was empty',
    body: `${NOT_SENT} Nothing was filled in, so there was nothing to send.`,
    remedy: 'fix',
    fix: 'Fill it in and send it again.',
    nothingTyped: true,
  },
  payload_too_large: {
    title: 'Your message is too long',
    body: `${NOT_SENT} Together, the answers are longer than this form accepts.`,
    remedy: 'fix',
    fix: 'Shorten the longest answers and send the form again.',
  },
  file_uploads_unsupported: {
    title: 'Files cannot be sent with this form',
    body: `${NOT_SENT} This form takes text only.`,
    remedy: 'fix',
    fix: 'Remove the attached file and send the form again.',
  },
  file_too_large: {
    title: 'A file is too large',
    body: `${NOT_SENT} An attached file is larger than this form accepts, so neither your message nor its files were kept.`,
    remedy: 'fix',
    fix: 'Attach a smaller file (or a compressed copy) and send the form again.',
  },
  files_too_large: {
    title: 'The files are too large together',
    body: `${NOT_SENT} Together, the attached files are larger than this form accepts, so neither your message nor its files were kept.`,
    remedy: 'fix',
    fix: 'Attach fewer or smaller files and send the form again.',
  },
  too_many_files: {
    title: 'Too many files',
    body: `${NOT_SENT} More files were attached than this form accepts, so neither your message nor its files were kept.`,
    remedy: 'fix',
    fix: 'Attach fewer files and send the form again.',
  },
  file_type_not_allowed: {
    title: 'This type of file is not accepted',
    body: `${NOT_SENT} An attached file is of a type this form does not take (judged from its content, not its name), so neither your message nor its files were kept.`,
    remedy: 'fix',
    fix: 'Attach a file of another type — an image or a PDF, say — and send the form again.',
  },
  storage_full: {
    title: 'This form cannot take more files',
    body: `${NOT_SENT} The file storage of this form’s owner is full. ${OWNER}`,
    remedy: 'owner',
  },
  captcha_required: {
    title: 'Please complete the CAPTCHA',
    body: `${NOT_SENT} The form asks you to show you are a person before it sends.`,
    remedy: 'fix',
    fix: 'Complete the check next to the Send button (tick the box, or wait until it says done), then send the form again.',
  },
  captcha_failed: {
    title: 'The CAPTCHA could not be verified',
    body: `${NOT_SENT} The check may have expired while you were writing.`,
    remedy: 'fix',
    fix: 'Complete the check again, then send the form.',
  },
  rate_limited: {
    title: 'Too many messages in a short time',
    body: `${NOT_SENT} To keep spam out, this form takes only a few messages at a time from one network.`,
    remedy: 'wait',
  },
  storage_failed: {
    title: 'Your message could not be saved just now',
    body: `${NOT_SENT} The service that stores it did not answer in time; this is usually over in a moment.`,
    remedy: 'wait',
  },
  captcha_unavailable: {
    title: 'The CAPTCHA could not be checked just now',
    body: `${NOT_SENT} The service that checks it did not answer in time; this is usually over in a moment.`,
    remedy: 'wait',
  },
  invalid_body: {
    title: 'The form could not be read',
    body: `${NOT_SENT} What arrived was not a form we could read.`,
    remedy: 'fix',
    fix: 'Send the form again.',
  },
  form_not_found: {
    title: 'This form no longer exists',
    body: `${NOT_SENT} The form was removed, or the page points to a wrong address. ${OWNER}`,
    remedy: 'owner',
  },
  origin_not_allowed: {
    title: 'This form does not take messages from this website',
    body: `${NOT_SENT} It is set up for another website. ${OWNER}`,
    remedy: 'owner',
  },
  unsupported_media_type: {
    title: 'This form is not set up correctly',
    body: `${NOT_SENT} It sends its answers in a way the form service cannot read. ${OWNER}`,
    remedy: 'owner',
  },
  captcha_misconfigured: {
    title: 'This form’s spam check is not set up correctly',
    body: `${NOT_SENT} ${OWNER}`,
    remedy: 'owner',
  },
  quota_exceeded: {
    title: 'This form has reached its limit',
    body: `${NOT_SENT} It has received all the messages its owner’s plan allows this month. ${OWNER}`,
    remedy: 'owner',
  },
  // Not the answer to a form post; worded for completeness.
  method_not_allowed: GENERAL_REFUSAL,
  not_found: GENERAL_REFUSAL,
  unauthorized: GENERAL_REFUSAL,
};

/** The words for a code from the page's address; the general text for one it does not know. */
export function refusalText(code: string | null): RefusalText {
  return code !== null && Object.hasOwn(REFUSAL_TEXTS, code)
    ? REFUSAL_TEXTS[code as RefusalPageCode]
    : GENERAL_REFUSAL;
}

const count = (n: number, unit: string) => `about ${n} ${n === 1 ? unit : `${unit}s`}`;

/** "about 40 seconds", "about 3 minutes", "about 2 hours", "about 3 days" (rounded up). */
export function waitText(seconds: number): string {
  if (seconds < 60) return count(Math.max(1, Math.ceil(seconds)), 'second');
  if (seconds < 3600) return count(Math.ceil(seconds / 60), 'minute');
  if (seconds < 2 * 86_400) return count(Math.ceil(seconds / 3600), 'hour');
  return count(Math.ceil(seconds / 86_400), 'day');
}
