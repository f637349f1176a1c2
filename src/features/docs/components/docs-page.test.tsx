// The docs hub: table of contents, the endpoint's real limits and error codes, copyable samples.
import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../components/testing/render';
import {
  CONFIRMATIONS,
  DELIVERY,
  IDEMPOTENCY,
  LIMITS,
  SPECIAL_FIELDS,
} from '../../../../supabase/functions/_shared/limits.ts';
import { ERRORS } from '../../../../supabase/functions/forms/errors.ts';
import { DOC_SECTIONS } from '../toc';
import { DocsPage } from '../index';

// Chakra in jsdom renders slowly on a busy machine; this is a budget, not a timing assertion.
vi.setConfig({ testTimeout: 20_000 });

// Odd values that appear nowhere else: if the page showed a retyped number instead of reading the
// shared module, these assertions would fail.
vi.mock('../../../../supabase/functions/_shared/limits.ts', async (importOriginal) => {
  const real =
    await importOriginal<typeof import('../../../../supabase/functions/_shared/limits.ts')>();
  return {
    ...real,
    LIMITS: {
      ...real.LIMITS,
      maxBodyBytes: 96 * 1024,
      maxFields: 37,
      maxFieldNameLength: 91,
      maxNameLength: 173,
      maxEmailLength: 311,
      maxMessageLength: 12_345,
      maxOtherValueLength: 23_456,
      ratePerMinute: 7,
      ratePerDay: 63,
      formRatePerMinute: 71,
      notificationsPerHour: 123,
      notificationsPerDay: 4_567,
    },
    DELIVERY: { ...real.DELIVERY, maxAttempts: 9, baseDelaySeconds: 45, maxDelaySeconds: 3 * 3600 },
    IDEMPOTENCY: { ...real.IDEMPOTENCY, windowHours: 29, maxKeyLength: 233 },
    ACCOUNT_CAPS: {
      ...real.ACCOUNT_CAPS,
      webhookFailuresBeforeOff: 47,
      webhooksPerForm: 9,
      webhooksPerAccount: 23,
      manualWebhookSendsPerMinute: 8,
      manualWebhookSendsPerDay: 97,
      webhookAttemptsPerHostPerMinute: 59,
    },
    AUTORESPONDER: {
      ...real.AUTORESPONDER,
      perHour: 53,
      perDay: 211,
      perRecipientPerDay: 7,
      perClientPerDay: 4,
      maxMergeFields: 13,
      nameChars: 47,
    },
  };
});

const n = (value: number) => value.toLocaleString('en-US');

function row(tableName: string, label: string) {
  const table = screen.getByRole('table', { name: tableName });
  const cell = within(table).getByRole('cell', { name: label });
  return cell.closest('tr') as HTMLElement;
}

describe('DocsPage', () => {
  it('has one h1, a title and a table of contents linking to every section heading', () => {
    renderWithProviders(<DocsPage />, { route: '/docs' });
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(document.title).toBe('Docs · tinyback.tools');
    const toc = screen.getByRole('navigation', { name: 'On this page' });
    // jsdom applies no media queries, so the page is laid out as on a phone: the list is folded.
    const links = within(toc).getAllByRole('link', { hidden: true });
    expect(links).toHaveLength(DOC_SECTIONS.length);
    for (const link of links) {
      const id = link.getAttribute('href')!.slice(1);
      const heading = document.getElementById(id);
      expect(heading?.tagName).toBe('H2');
    }
    for (const title of [
      'Getting started',
      'Special fields',
      'Limits and error codes',
      'Troubleshooting',
      'Security',
      'FAQ',
    ]) {
      expect(screen.getByRole('heading', { level: 2, name: title })).toBeInTheDocument();
    }
  });

  it('folds the table of contents behind a disclosure button on small screens', async () => {
    const user = userEvent.setup();
    renderWithProviders(<DocsPage />, { route: '/docs' });
    const toc = screen.getByRole('navigation', { name: 'On this page' });
    const toggle = within(toc).getByRole('button', { name: 'On this page' });
    const list = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(list).not.toBeVisible();
    expect(within(toc).queryAllByRole('link')).toHaveLength(0);

    // Keyboard: Enter opens it, Escape folds it and gives the focus back to the button.
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(list).toBeVisible();
    expect(within(toc).getAllByRole('link')).toHaveLength(DOC_SECTIONS.length);
    await user.tab();
    expect(within(toc).getByRole('link', { name: 'Getting started' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();

    // Following a link folds it again, so the section is not hidden behind the list.
    await user.click(toggle);
    await user.click(within(toc).getByRole('link', { name: 'FAQ' }));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(list).not.toBeVisible();
  });

  it('renders inline code as code chips and never shows a raw backtick', () => {
    renderWithProviders(<DocsPage />, { route: '/docs' });
    const main = document.body.cloneNode(true) as HTMLElement;
    // Code samples are code: a JavaScript template literal in them is meant to be there.
    main.querySelectorAll('pre').forEach((pre) => pre.remove());
    expect(main.textContent).not.toContain('`');
    const invalid = row('Error statuses and codes', 'invalid_fields');
    expect(within(invalid).getByText('fields').closest('code')).not.toBeNull();
    expect(invalid).toHaveTextContent('says which.');
    const faq = screen.getByRole('region', { name: 'FAQ' });
    expect(within(faq).getAllByText(SPECIAL_FIELDS.next)[0].closest('code')).not.toBeNull();
  });

  it('shows every limit from the endpoint’s shared module', () => {
    renderWithProviders(<DocsPage />, { route: '/docs' });
    expect(row('Limits per submission', 'Request body')).toHaveTextContent(
      `${LIMITS.maxBodyBytes / 1024} KiB (${n(LIMITS.maxBodyBytes)} bytes)`,
    );
    expect(row('Limits per submission', 'Fields')).toHaveTextContent(
      `${n(LIMITS.maxFields)}, special fields included`,
    );
    expect(row('Limits per submission', 'Field name')).toHaveTextContent(
      `${n(LIMITS.maxFieldNameLength)} characters`,
    );
    expect(row('Limits per submission', 'name')).toHaveTextContent(
      `${n(LIMITS.maxNameLength)} characters`,
    );
    expect(row('Limits per submission', 'email')).toHaveTextContent(
      `${n(LIMITS.maxEmailLength)} characters`,
    );
    expect(row('Limits per submission', 'message')).toHaveTextContent(
      `${n(LIMITS.maxMessageLength)} characters`,
    );
    expect(row('Limits per submission', 'Any other field')).toHaveTextContent(
      `${n(LIMITS.maxOtherValueLength)} characters`,
    );
    expect(row('Limits per submission', 'Submissions per IP and form')).toHaveTextContent(
      `${LIMITS.ratePerMinute} per minute, ${LIMITS.ratePerDay} per day`,
    );
    // The spam section states the same rate limit in prose.
    const spam = screen.getByRole('region', { name: 'Spam defence' });
    expect(spam).toHaveTextContent(
      `at most ${LIMITS.ratePerMinute} submissions per minute and ${LIMITS.ratePerDay} per day`,
    );
    // None of the real values leak in as retyped text.
    expect(document.body).not.toHaveTextContent('64 KiB');
    expect(document.body).not.toHaveTextContent('10,000 characters');
  });

  it('describes e-mail retries with the delivery schedule from the shared module', () => {
    renderWithProviders(<DocsPage />, { route: '/docs' });
    const section = screen.getByRole('region', { name: 'E-mail notifications' });
    expect(section).toHaveTextContent(`first after ${DELIVERY.baseDelaySeconds} seconds`);
    expect(section).toHaveTextContent(
      `up to ${DELIVERY.maxDelaySeconds / 3600} hours between attempts, ${DELIVERY.maxAttempts} attempts`,
    );
  });

  it('says notifications go only to confirmed addresses, within the caps of the shared module', () => {
    renderWithProviders(<DocsPage />, { route: '/docs' });
    const section = screen.getByRole('region', { name: 'E-mail notifications' });
    expect(section).toHaveTextContent('E-mails go only to a confirmed address');
    expect(section).toHaveTextContent(`for ${CONFIRMATIONS.linkValidHours} hours`);
    expect(section).toHaveTextContent(
      `at most ${n(LIMITS.notificationsPerHour)} notifications per hour and ${n(LIMITS.notificationsPerDay)} per day`,
    );
    const spam = screen.getByRole('region', { name: 'Spam defence' });
    expect(spam).toHaveTextContent(
      `at most ${n(LIMITS.formRatePerMinute)} submissions per minute in all`,
    );
  });

  it('lists every error status with the code the endpoint sends', () => {
    renderWithProviders(<DocsPage />, { route: '/docs' });
    const table = screen.getByRole('table', { name: 'Error statuses and codes' });
    const rows = within(table).getAllByRole('row').slice(1);
    const pairs = rows.map((r) =>
      within(r)
        .getAllByRole('cell')
        .slice(0, 2)
        .map((c) => c.textContent),
    );
    expect(pairs).toEqual([
      ['400', 'captcha_required'],
      ['400', 'invalid_body'],
      ['403', 'origin_not_allowed'],
      ['403', 'captcha_failed'],
      ['404', 'form_not_found'],
      ['405', 'method_not_allowed'],
      ['413', 'payload_too_large'],
      ['413', 'file_too_large'],
      ['413', 'files_too_large'],
      ['413', 'storage_full'],
      ['415', 'unsupported_media_type'],
      ['415', 'file_uploads_unsupported'],
      ['415', 'file_type_not_allowed'],
      ['422', 'invalid_fields'],
      ['422', 'too_many_files'],
      ['429', 'rate_limited'],
      ['429', 'quota_exceeded'],
      ['500', 'captcha_misconfigured'],
      ['503', 'captcha_unavailable'],
      [String(ERRORS.storageFailed().status), 'storage_failed'],
    ]);
    expect(rows[15]).toHaveTextContent('Retry-After');
    expect(screen.getByRole('region', { name: 'Limits and error codes' })).toHaveTextContent(
      '303 See Other',
    );
  });

  it('documents each special field by its real name', () => {
    renderWithProviders(<DocsPage />, { route: '/docs' });
    const table = screen.getByRole('table', { name: 'Special fields' });
    for (const name of [
      SPECIAL_FIELDS.next,
      SPECIAL_FIELDS.subject,
      SPECIAL_FIELDS.replyTo,
      ...SPECIAL_FIELDS.honeypots,
      SPECIAL_FIELDS.idempotency,
    ]) {
      expect(within(table).getByText(name)).toBeInTheDocument();
    }
  });

  it('documents idempotent posts: the header, the field, the window, the key and refusals', () => {
    renderWithProviders(<DocsPage />, { route: '/docs' });
    const section = screen.getByRole('region', { name: 'Special fields' });
    expect(within(section).getByText(IDEMPOTENCY.header).closest('code')).not.toBeNull();
    expect(section).toHaveTextContent(
      'a repeat of that key for the same form within 29 hours stores nothing and sends nothing',
    );
    expect(section).toHaveTextContent('the same entry id, the same redirect');
    expect(section).toHaveTextContent('A key is 1 to 233 visible ASCII characters');
    expect(section).toHaveTextContent('400 invalid_body');
    expect(section).toHaveTextContent('422 invalid_fields');
  });

  it('states the autoresponder’s merge fields, caps and copies from the shared module', () => {
    renderWithProviders(<DocsPage />, { route: '/docs' });
    const section = screen.getByRole('region', { name: 'Autoresponder' });
    expect(section).toHaveTextContent('A reply fills three merge fields: {{name}}');
    expect(section).toHaveTextContent('at most 47 characters');
    expect(section).toHaveTextContent('{{message}} included, is left empty');
    expect(section).toHaveTextContent('Only the first 13 merge fields');
    expect(section).toHaveTextContent('At most 53 replies an hour and 211 a day per account');
    expect(section).toHaveTextContent('4 a day per account to posts from one visitor’s network');
    expect(section).toHaveTextContent('7 a day to one address from all accounts together');
    expect(section).toHaveTextContent(
      'deleted with the message it answers (by you, the API, a retention rule or the form’s deletion), and 30 days after sending at the latest',
    );
  });

  it('shows the endpoint URL, the /api/forms rewrite and copyable samples', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithProviders(<DocsPage />, { route: '/docs' });
    const endpoint = screen.getByRole('region', { name: 'The endpoint URL' });
    expect(endpoint).toHaveTextContent('POST {SUPABASE_URL}/functions/v1/forms/{formId}');
    expect(endpoint).toHaveTextContent('/api/forms/{formId}');
    await user.click(screen.getByRole('button', { name: 'Copy: HTML form' }));
    expect(writeText).toHaveBeenCalledTimes(1);
    const copied = writeText.mock.calls[0][0] as string;
    expect(copied).toMatch(
      /^<form action="http[^"]+\/functions\/v1\/forms\/YOUR-FORM-ID" method="POST">/,
    );
    expect(screen.getByRole('region', { name: 'AJAX and JSON' })).toHaveTextContent(
      "Accept: 'application/json'",
    );
  });

  it('documents webhooks: the signature header, the Node check, retries and refused targets', () => {
    renderWithProviders(<DocsPage />, { route: '/docs' });
    const section = screen.getByRole('region', { name: 'Webhooks and automation' });
    expect(section).not.toHaveTextContent('Coming soon');
    expect(section).toHaveTextContent('X-Tinyback-Signature');
    expect(section).toHaveTextContent('verifyTinybackSignature');
    expect(section).toHaveTextContent(/for 24 hours/);
    expect(section).toHaveTextContent(/169\.254\.169\.254/);
    expect(section).toHaveTextContent('once, without retries');
    expect(section).toHaveTextContent('After 47 failed attempts in a row, a webhook is turned off');
    expect(section).toHaveTextContent('At most 9 webhooks per form and 23 per account');
    expect(section).toHaveTextContent('8 test events and Send again a minute and 97 a day');
    expect(section).toHaveTextContent('59 attempts a minute from one account to one host');
    expect(
      within(section).getByRole('button', { name: 'Copy: Verify a webhook in Node' }),
    ).toBeVisible();
  });

  it('marks nothing as coming soon any more and links the contact address', () => {
    renderWithProviders(<DocsPage />, { route: '/docs' });
    // Booking is built: the section documents it and is no longer marked.
    expect(screen.getByRole('region', { name: 'Booking' })).not.toHaveTextContent('Coming soon');
    expect(screen.getByRole('navigation', { name: 'On this page' })).not.toHaveTextContent(
      '(soon)',
    );
    // API keys are built: the section documents them and is no longer marked.
    expect(screen.getByRole('region', { name: 'API key authentication' })).not.toHaveTextContent(
      'Coming soon',
    );
    expect(screen.getByRole('region', { name: 'API key authentication' })).toHaveTextContent(
      /read-only keys/i,
    );
    expect(screen.getByRole('region', { name: 'API key authentication' })).toHaveTextContent(
      /write-limited keys/i,
    );
    expect(screen.getByRole('region', { name: 'Analytics' })).not.toHaveTextContent('Coming soon');
    const contact = screen.getByRole('region', { name: 'Contact' });
    expect(within(contact).getByRole('link', { name: 'hello@tinyback.tools' })).toHaveAttribute(
      'href',
      'mailto:hello@tinyback.tools',
    );
  });
});
