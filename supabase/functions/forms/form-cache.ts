// The forms this worker has seen, kept briefly in memory so that a post to a known form costs one
// database call (accept_post) instead of a lookup first. Never trusted for storing: accept_post
// compares the form the handler used with the row and answers `form_changed` if an edit came in
// between, and a refusal based on a remembered form is checked against a fresh read first.
import type { AcceptInput, AcceptResult, FormRecord } from './model.ts';

export interface FormCacheOptions {
  /** How long a form is remembered without being confirmed by a post. */
  ttlMs: number;
  /** Forms remembered at most; the least recently used go first. */
  maxForms: number;
  now?: () => number;
}

export interface FormSource {
  loadForm(id: string): Promise<FormRecord | null>;
  accept(input: AcceptInput): Promise<AcceptResult>;
}

/**
 * Wraps `source` so that loadForm answers from memory when it can (`fresh` skips the memory), and
 * accept keeps the memory in step with what the database answered.
 */
export function cachedForms(source: FormSource, options: FormCacheOptions) {
  const now = options.now ?? Date.now;
  const forms = new Map<string, { form: FormRecord; until: number }>();

  const remember = (form: FormRecord) => {
    forms.delete(form.id);
    forms.set(form.id, { form, until: now() + options.ttlMs });
    // A Map iterates in insertion order, so the first key is the least recently used.
    while (forms.size > options.maxForms) forms.delete(forms.keys().next().value!);
  };

  return {
    async loadForm(id: string, opts: { fresh?: boolean } = {}): Promise<FormRecord | null> {
      const known = forms.get(id);
      if (known && !opts.fresh && known.until > now()) return known.form;
      const form = await source.loadForm(id);
      if (form) remember(form);
      else forms.delete(id);
      return form;
    },

    async accept(input: AcceptInput): Promise<AcceptResult> {
      const result = await source.accept(input);
      if (result.status === 'form_changed') remember(result.form);
      else if (result.status === 'form_not_found') forms.delete(input.formId);
      else if (result.status === 'accepted') remember(input.form);
      return result;
    },

    /** How many forms are remembered (for tests). */
    get size() {
      return forms.size;
    },
  };
}
