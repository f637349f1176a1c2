// Turns a failed create / edit / delete into words for the dialog: which field the database
// refused and why, or what went wrong with the request. Errors arrive as PostgREST's
// `{code, message, details, hint}` (supabase-js) or as a thrown fetch error.
import type { FormSettings } from './form-schema';
import { ORIGIN_EXAMPLE } from './normalize-origin';

type FormField = keyof FormSettings;

export interface FormProblem {
  /** Shown in the dialog (and in a toast where there is no dialog). */
  message: string;
  /** The input to mark, when the problem is one field's. */
  field?: FormField;
}

/** The database's check constraints on forms, by name, and what each means for the user. */
const CONSTRAINTS: Record<string, Required<FormProblem>> = {
  forms_name_length: {
    field: 'name',
    message: 'The form name must be between 1 and 200 characters.',
  },
  forms_target_email_format: {
    field: 'target_email',
    message: 'The server did not accept this e-mail address. Check it for typos.',
  },
  forms_allowed_origin_format: {
    field: 'allowed_origin',
    message: `The server did not accept this origin. Use scheme, host and an optional port only, e.g. ${ORIGIN_EXAMPLE}.`,
  },
  forms_redirect_url_format: {
    field: 'redirect_url',
    message:
      'The server did not accept this thank-you address. Use a full http:// or https:// URL.',
  },
};

/**
 * The database's own sentences, by the hint it sets: shown as they are. Creating forms is capped
 * per account (20 an hour, 100 a day: PT429, 'form_create_limit').
 */
const READABLE_HINTS: Record<string, string> = {
  form_create_limit: 'You have created too many forms recently. Try again in an hour.',
  // A new form or origin that would be one website more than the plan's projects (PT403).
  plan_project_limit:
    'Your plan does not include another project (website). Use the website of one of your forms, or move to a bigger plan (Settings → Plan and usage).',
};

/** The field a hint's sentence is about, when it is one field's. */
const HINT_FIELDS: Record<string, FormField> = { plan_project_limit: 'allowed_origin' };

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  details?: unknown;
  hint?: unknown;
}

function parts(error: unknown): { code: string; text: string; message: string; hint: string } {
  if (error && typeof error === 'object') {
    const e = error as ErrorLike;
    const text = [e.message, e.details].filter((v) => typeof v === 'string').join(' ');
    return {
      code: typeof e.code === 'string' ? e.code : '',
      text,
      message: typeof e.message === 'string' ? e.message : '',
      hint: typeof e.hint === 'string' ? e.hint : '',
    };
  }
  return { code: '', text: typeof error === 'string' ? error : '', message: '', hint: '' };
}

/** What went wrong, for a user; `action` is the failed action, e.g. 'create the form'. */
export function describeFormError(error: unknown, action: string): FormProblem {
  const { code, text, message, hint } = parts(error);
  if (Object.hasOwn(READABLE_HINTS, hint)) {
    const field = Object.hasOwn(HINT_FIELDS, hint) ? HINT_FIELDS[hint] : undefined;
    return { message: message || READABLE_HINTS[hint]!, ...(field ? { field } : {}) };
  }
  for (const [name, problem] of Object.entries(CONSTRAINTS)) {
    if (text.includes(name)) return problem;
  }
  if (code === '23505') {
    // Ids of deleted forms are never given out again (their published HTML may still post to
    // them); a new attempt creates the form with a new random id.
    if (text.includes('used before')) {
      return {
        message: 'This form id was used before and cannot be used again. Please try again.',
      };
    }
    return { message: 'A form with this id already exists. Please try again.' };
  }
  if (code === '42501' || code === 'PGRST301' || code === 'PGRST303') {
    return {
      message: `You are not allowed to ${action}. Your session may have ended: sign in again.`,
    };
  }
  // `.single()` on an update or delete that matched nothing: gone, e.g. deleted in another tab.
  if (code === 'PGRST116') return { message: 'This form no longer exists.' };
  if (/failed to fetch|networkerror|network request failed|load failed/i.test(text)) {
    return {
      message: `Could not reach the server to ${action}. Check your connection and try again.`,
    };
  }
  return { message: `Could not ${action}. Please try again.` };
}
