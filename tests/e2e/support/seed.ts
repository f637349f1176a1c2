import { testStack } from '../../support/stack.ts';
// Seeding messages the way they really arrive: posted to a form's public endpoint from the form's
// allowed origin (a filled `_gotcha` honeypot makes the endpoint store the post as spam).

export interface Submission {
  name?: string;
  email?: string;
  message?: string;
  /** Fills the honeypot: stored, but as spam. */
  spam?: boolean;
  /** A list is sent as the same name repeated, once per item (as checkboxes are). */
  [field: string]: string | string[] | boolean | undefined;
}

/**
 * Posts one submission as a page on `origin` would (JSON answer), its fields in the order given;
 * returns the stored entry id.
 */
export async function submitToForm(
  formId: string,
  origin: string,
  submission: Submission,
): Promise<string> {
  const { spam, ...fields } = submission;
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') body.append(key, value);
    else if (Array.isArray(value)) for (const item of value) body.append(key, item);
  }
  if (spam) body.set('_gotcha', 'I am a bot');
  const res = await fetch(`${testStack().apiUrl}/functions/v1/forms/${formId}`, {
    method: 'POST',
    headers: { Origin: origin, Accept: 'application/json' },
    body,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`the endpoint answered ${res.status}: ${text}`);
  const json = JSON.parse(text) as { ok?: boolean; id?: string };
  if (!json.ok) throw new Error(`the endpoint refused the submission: ${text}`);
  return json.id ?? '';
}
