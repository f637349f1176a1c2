// /custom's project enquiry: one post to the site's own tinyback form (CUSTOM_ENQUIRY_FORM_ID)
// through the public form endpoint, exactly as a customer's site posts (we use our own product).
// The endpoint answers JSON when asked (`Accept: application/json`): `{ ok: true, id }`, or
// `{ ok: false, error, code, fields }` with a sentence safe to show.
import * as yup from 'yup';
import { useMutation } from '@tanstack/react-query';
import { LIMITS, SPECIAL_FIELDS } from '../../../../supabase/functions/_shared/limits';
import { env } from '../../../config/env';
import { CUSTOM_ENQUIRY_FORM_ID, formEndpoint } from '../../../config/site';

export const projectEnquirySchema = yup.object({
  name: yup
    .string()
    .trim()
    .required('Please tell us your name.')
    .max(LIMITS.maxNameLength, `At most ${LIMITS.maxNameLength} characters.`),
  email: yup
    .string()
    .trim()
    .required('Please enter your email address.')
    .email('Please enter a valid email address.')
    .max(LIMITS.maxEmailLength, `At most ${LIMITS.maxEmailLength} characters.`),
  message: yup
    .string()
    .trim()
    .required('Please tell us a little about your project.')
    .max(LIMITS.maxMessageLength, `At most ${LIMITS.maxMessageLength} characters.`),
  /** The honeypot: empty for people; a bot that fills it is stored as spam. */
  website: yup.string().default(''),
});

export type ProjectEnquiry = yup.InferType<typeof projectEnquirySchema>;

/** The endpoint's refusal, with its sentence and any per-field problems. */
export class EnquiryError extends Error {
  constructor(
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'EnquiryError';
  }
}

const GENERIC_FAILURE = 'Your message could not be sent. Please try again in a moment.';

async function sendProjectEnquiry(input: ProjectEnquiry): Promise<string> {
  const { name, email, message, website } = await projectEnquirySchema.validate(input);
  const body = new URLSearchParams({ name, email, message });
  body.set(SPECIAL_FIELDS.subject, `Custom web project: ${name}`.slice(0, LIMITS.maxSubjectLength));
  body.set(SPECIAL_FIELDS.replyTo, email);
  body.set(SPECIAL_FIELDS.honeypots[0], website);
  let res: Response;
  try {
    res = await fetch(formEndpoint(env.supabaseUrl, CUSTOM_ENQUIRY_FORM_ID), {
      method: 'POST',
      headers: { Accept: 'application/json' },
      body,
    });
  } catch {
    throw new EnquiryError(GENERIC_FAILURE);
  }
  const json = (await res.json().catch(() => null)) as {
    ok?: boolean;
    id?: string;
    error?: unknown;
    fields?: unknown;
  } | null;
  if (res.ok && json?.ok) return json.id ?? '';
  const fields =
    json?.fields && typeof json.fields === 'object' ? (json.fields as Record<string, string>) : {};
  throw new EnquiryError(typeof json?.error === 'string' ? json.error : GENERIC_FAILURE, fields);
}

export function useSendProjectEnquiry() {
  return useMutation({ mutationFn: sendProjectEnquiry });
}
