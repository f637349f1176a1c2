// The fields of a list, checked in the dialog with the database's own rules
// (supabase/schemas/13-newsletter.sql) so a mistake is explained before any request; the database
// still has the last word.
import * as yup from 'yup';

const NAME_MAX = 100;
const FROM_NAME_MAX = 60;
const REPLY_TO_MAX = 254;
const ORIGIN_MAX = 300;
export const CONFIRM_MESSAGE_MAX = 1000;

const EMAIL_FORMAT =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;
const ORIGIN_FORMAT =
  /^https?:\/\/([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?$/;
// Controls, bidi marks and the characters that would turn a sender name into an address.
const FROM_NAME_REFUSED =
  // eslint-disable-next-line no-control-regex
  /[\x01-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069@＠<>＜＞]/;

export const LIST_TEXT = {
  nameRequired: 'Enter a name for the list.',
  nameTooLong: `A list name is at most ${NAME_MAX} characters.`,
  fromNameTooLong: `A sender name is at most ${FROM_NAME_MAX} characters.`,
  fromNameInvalid: 'A sender name is a plain name, without @, < or >.',
  replyToInvalid: 'Enter a valid e-mail address, e.g. you@example.com.',
  originRequired: 'Enter the address of the website your signup form is on.',
  originInvalid: 'Enter only the site’s address, e.g. https://your-site.com (no path).',
  confirmTooLong: `The confirmation words are at most ${CONFIRM_MESSAGE_MAX} characters.`,
} as const;

/** What the database stores for an origin: trimmed, lower case, one trailing slash removed. */
function normalizeOrigin(input: string): string {
  return input.trim().toLowerCase().replace(/\/$/, '');
}

const text = () =>
  yup
    .string()
    .default('')
    .transform((value: unknown) => (typeof value === 'string' ? value.trim() : value));
const optional = () =>
  yup
    .string()
    .nullable()
    .default(null)
    .transform((value: unknown) =>
      typeof value === 'string' ? value.trim() || null : (value ?? null),
    );

/** A sender name and reply-to, a list's or a campaign's own (empty: none). */
export const senderFields = {
  from_name: optional()
    .max(FROM_NAME_MAX, LIST_TEXT.fromNameTooLong)
    .test(
      'from-name',
      LIST_TEXT.fromNameInvalid,
      (value) => !value || !FROM_NAME_REFUSED.test(value),
    ),
  reply_to: optional()
    .max(REPLY_TO_MAX, LIST_TEXT.replyToInvalid)
    .test('reply-to', LIST_TEXT.replyToInvalid, (value) => !value || EMAIL_FORMAT.test(value)),
};

export const listSchema = yup.object({
  name: text().required(LIST_TEXT.nameRequired).max(NAME_MAX, LIST_TEXT.nameTooLong),
  ...senderFields,
  allowed_origin: yup
    .string()
    .default('')
    .transform((value: unknown) => (typeof value === 'string' ? normalizeOrigin(value) : value))
    .required(LIST_TEXT.originRequired)
    .test(
      'origin',
      LIST_TEXT.originInvalid,
      (value) => !value || (value.length <= ORIGIN_MAX && ORIGIN_FORMAT.test(value)),
    ),
  confirm_message: text().max(CONFIRM_MESSAGE_MAX, LIST_TEXT.confirmTooLong),
});

export type ListInput = yup.InferType<typeof listSchema>;

/** What the dialog's boxes hold. */
export interface ListFormValues {
  name: string;
  from_name: string;
  reply_to: string;
  allowed_origin: string;
  confirm_message: string;
}

export const EMPTY_LIST_VALUES: ListFormValues = {
  name: '',
  from_name: '',
  reply_to: '',
  allowed_origin: '',
  confirm_message: '',
};

export function cleanList(values: ListFormValues): ListInput {
  return listSchema.validateSync(values, { stripUnknown: true });
}
