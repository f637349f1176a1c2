import { describe, expect, it } from 'vitest';
import { API_KEYS } from './api-facts';
import {
  KEY_PLACEHOLDER,
  apiBaseUrl,
  deleteEntryExample,
  listEntriesExample,
  listFormsExample,
} from './api-examples';
import { FORM_ID_PLACEHOLDER } from './examples';

const URL = 'https://abc.supabase.co/';

describe('the read API examples', () => {
  it('point at this deployment’s forms-api function', () => {
    expect(apiBaseUrl(URL)).toBe('https://abc.supabase.co/functions/v1/forms-api');
    expect(listFormsExample(URL)).toContain('https://abc.supabase.co/functions/v1/forms-api/forms');
  });

  it('send the key as a bearer token in every command', () => {
    expect(KEY_PLACEHOLDER.startsWith(API_KEYS.prefix)).toBe(true);
    for (const example of [listFormsExample(URL), listEntriesExample(URL), deleteEntryExample(URL)])
      for (const command of example.split('\n\n'))
        expect(command).toContain(`-H "Authorization: Bearer ${KEY_PLACEHOLDER}"`);
  });

  it('page with since, limit and cursor, and delete with DELETE', () => {
    const entries = listEntriesExample(URL);
    expect(entries).toContain(
      `/forms/${FORM_ID_PLACEHOLDER}/entries?since=2026-11-01&limit=${API_KEYS.defaultPageSize}`,
    );
    expect(entries).toContain('?cursor=NEXT_CURSOR');
    expect(deleteEntryExample(URL)).toMatch(/^curl -X DELETE \S+\/entries\/ENTRY-ID/);
  });
});
