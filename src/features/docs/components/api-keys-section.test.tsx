// The API keys section of the docs: the read API's endpoints, parameters, refusals and curl
// examples, with the numbers and codes of the function's own modules.
import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../components/testing/render';
import { API_ERRORS } from '../../../../supabase/functions/forms-api/errors.ts';
import { ApiKeys } from './api-keys-section';

vi.setConfig({ testTimeout: 20_000 });

// Odd values that appear nowhere else: a retyped number on the page would fail these assertions.
vi.mock('../../../../supabase/functions/_shared/limits.ts', async (importOriginal) => {
  const real =
    await importOriginal<typeof import('../../../../supabase/functions/_shared/limits.ts')>();
  return {
    ...real,
    API_KEYS: {
      ...real.API_KEYS,
      requestsPerMinute: 47,
      requestsPerMinutePerAccount: 113,
      maxActiveKeys: 19,
      createdPerDay: 17,
      revokedKeptDays: 33,
      defaultPageSize: 29,
      maxPageSize: 131,
    },
  };
});

describe('the API keys docs section', () => {
  it('documents the three endpoints, the bearer header and the scopes', () => {
    renderWithProviders(<ApiKeys />);
    const section = screen.getByRole('region', { name: 'API key authentication' });
    expect(section).toHaveTextContent('Authorization: Bearer tb_live_…');
    expect(section).toHaveTextContent(/read-only keys/i);
    expect(section).toHaveTextContent(/write-limited keys/i);
    for (const heading of [
      'GET /functions/v1/forms-api/forms',
      'GET /functions/v1/forms-api/forms/{formId}/entries',
      'DELETE /functions/v1/forms-api/forms/{formId}/entries/{entryId}',
    ])
      expect(within(section).getByRole('heading', { level: 3, name: heading })).toBeVisible();
    expect(within(section).getByRole('link', { name: 'Settings → API keys' })).toHaveAttribute(
      'href',
      '/settings',
    );
    expect(section).toHaveTextContent('shown once');
  });

  it('states the limits from the shared module', () => {
    renderWithProviders(<ApiKeys />);
    const section = screen.getByRole('region', { name: 'API key authentication' });
    expect(section).toHaveTextContent('47 requests a minute');
    expect(section).toHaveTextContent('an account 113 a minute with all its keys together');
    expect(section).toHaveTextContent('19 active keys and create 17 a day');
    expect(section).toHaveTextContent('deleted 33 days after it was revoked');
    const errors = within(section).getByRole('table', { name: 'Read API errors' });
    expect(errors).toHaveTextContent('More than 47 requests in a minute with one key, or 113');
    const params = within(section).getByRole('table', { name: /Query parameters/ });
    expect(params).toHaveTextContent('29 unless given');
    expect(params).toHaveTextContent('lowered to 131');
  });

  it('lists every refusal with the status and code the function sends', () => {
    renderWithProviders(<ApiKeys />);
    const table = screen.getByRole('table', { name: 'Read API errors' });
    const rows = within(table).getAllByRole('row').slice(1);
    const errors = [
      API_ERRORS.invalidQuery({}),
      API_ERRORS.unauthorized(),
      API_ERRORS.insufficientScope(),
      API_ERRORS.formNotFound(),
      API_ERRORS.entryNotFound(),
      API_ERRORS.methodNotAllowed('GET'),
      API_ERRORS.rateLimited(1),
      API_ERRORS.storageFailed(),
    ];
    expect(rows).toHaveLength(errors.length);
    errors.forEach((err, i) => {
      expect(rows[i]).toHaveTextContent(String(err.status));
      expect(rows[i]).toHaveTextContent(err.code);
    });
  });

  it('offers copyable curl commands for this deployment', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithProviders(<ApiKeys />);
    for (const label of [
      'List your forms with curl',
      'Page through entries with curl',
      'Delete an entry with curl',
    ]) {
      await user.click(screen.getByRole('button', { name: `Copy: ${label}` }));
      const copied = writeText.mock.lastCall?.[0] as string;
      expect(copied, label).toMatch(/^curl .*http[^ "]+\/functions\/v1\/forms-api\/forms/m);
      expect(copied, label).toContain('-H "Authorization: Bearer tb_live_YOUR_KEY"');
    }
    expect(writeText).toHaveBeenCalledTimes(3);
  });
});
