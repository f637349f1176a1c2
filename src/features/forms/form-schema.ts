// The rules of a form's fields, shared by the create and edit dialogs and their requests. They
// repeat the database's constraints (supabase/migrations/20250711120100_forms.sql and
// 20261124090000_dashboard.sql) so mistakes are caught in the dialog, with a helpful message,
// before a request is made; the database still has the last word.
import * as yup from 'yup';
import { normalizeOrigin, originProblem } from './normalize-origin';

const NAME_MAX_LENGTH = 200;
const EMAIL_MAX_LENGTH = 320;
const REDIRECT_URL_MAX_LENGTH = 2000;

/** `forms_target_email_format`: a local part, @, and a domain with at least one dot. */
const EMAIL_FORMAT =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

/** `forms_redirect_url_format`: an absolute http(s) URL without spaces. */
const REDIRECT_URL_FORMAT = /^https?:\/\/[^\s/?#]+([/?#][^\s]*)?$/;

export const FORM_TEXT = {
  nameRequired: 'Enter a name for the form.',
  nameTooLong: `A form name is at most ${NAME_MAX_LENGTH} characters.`,
  emailRequired: 'Enter the e-mail address that receives the submissions.',
  emailInvalid: 'Enter a valid e-mail address, e.g. you@example.com.',
  emailTooLong: `An e-mail address is at most ${EMAIL_MAX_LENGTH} characters.`,
  originRequired: 'Enter the address of the website the form lives on.',
  redirectInvalid: 'Enter a full http:// or https:// address, e.g. https://your-site.com/thanks.',
  redirectTooLong: `A thank-you address is at most ${REDIRECT_URL_MAX_LENGTH} characters.`,
} as const;

const trimmed = () =>
  yup
    .string()
    .default('')
    .transform((value: unknown) => (typeof value === 'string' ? value.trim() : value));

/** The three fields of the spec's 'Create New Form' dialog. */
export const formDetailsSchema = yup.object({
  name: trimmed().required(FORM_TEXT.nameRequired).max(NAME_MAX_LENGTH, FORM_TEXT.nameTooLong),
  target_email: trimmed()
    .required(FORM_TEXT.emailRequired)
    .max(EMAIL_MAX_LENGTH, FORM_TEXT.emailTooLong)
    .matches(EMAIL_FORMAT, FORM_TEXT.emailInvalid),
  allowed_origin: yup
    .string()
    .default('')
    .transform((value: unknown) => (typeof value === 'string' ? normalizeOrigin(value) : value))
    .required(FORM_TEXT.originRequired)
    .test('origin', (value, context) => {
      const problem = value ? originProblem(value) : null;
      return problem ? context.createError({ message: problem }) : true;
    }),
});

/** Editing adds the per-form settings the endpoint honours. */
export const formSettingsSchema = formDetailsSchema.shape({
  notify_email: yup.boolean().default(true).required(),
  redirect_url: yup
    .string()
    .nullable()
    .default(null)
    // Optional: an empty box means "no thank-you page of my own".
    .transform((value: unknown) =>
      typeof value === 'string' ? value.trim() || null : (value ?? null),
    )
    .max(REDIRECT_URL_MAX_LENGTH, FORM_TEXT.redirectTooLong)
    .test('redirect-url', FORM_TEXT.redirectInvalid, (value) => !value || isRedirectUrl(value)),
});

export type FormDetails = yup.InferType<typeof formDetailsSchema>;
export type FormSettings = yup.InferType<typeof formSettingsSchema>;

/** What the dialog's inputs hold (the switch is a boolean, every box a string). */
export interface FormDialogValues {
  name: string;
  target_email: string;
  allowed_origin: string;
  notify_email: boolean;
  redirect_url: string;
}

export function isRedirectUrl(value: string): boolean {
  if (!REDIRECT_URL_FORMAT.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The cleaned values to send: trimmed, origin normalised, empty thank-you address as null. */
export function cleanDetails(values: Pick<FormDialogValues, keyof FormDetails>): FormDetails {
  return formDetailsSchema.validateSync(values, { stripUnknown: true });
}

export function cleanSettings(values: FormDialogValues): FormSettings {
  return formSettingsSchema.validateSync(values, { stripUnknown: true });
}
