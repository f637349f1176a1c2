// The newsletter docs section: a list's signup form as the endpoint takes it, double opt-in, the
// import's consent statement, campaigns sent exactly once with one-click unsubscribe, and the
// limits, read from limits.ts.
import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { CAMPAIGNS, LISTS } from '../../../../supabase/functions/_shared/limits';
import { renderWithProviders } from '../../../components/testing/render';
import { Newsletter } from './newsletter-docs';

vi.setConfig({ testTimeout: 20_000 });

const section = () => screen.getByRole('region', { name: 'Newsletter' });

describe('the newsletter docs section', () => {
  it("gives a list's signup form posting to the lists endpoint with the honeypot", () => {
    renderWithProviders(<Newsletter />);
    const code = within(section()).getAllByText(
      /functions\/v1\/newsletter\/lists\/YOUR-LIST-ID/,
    )[0]!;
    expect(code.textContent).toMatch(/name="email"/);
    expect(code.textContent).toMatch(/name="_gotcha"/);
    const answers = within(section()).getByRole('table', {
      name: 'Answers of the signup endpoint',
    });
    for (const status of ['202', '303', '403', '404', '422', '429', '500', '503'])
      expect(within(answers).getByText(status)).toBeInTheDocument();
  });

  it('explains the signup CAPTCHA: its providers, keys, token fields and refusals', () => {
    renderWithProviders(<Newsletter />);
    expect(
      within(section()).getByRole('heading', { name: 'CAPTCHA on the signup form' }),
    ).toBeInTheDocument();
    expect(section()).toHaveTextContent(
      'choose Cloudflare Turnstile, hCaptcha or reCAPTCHA v2 (checkbox)',
    );
    expect(section()).toHaveTextContent('leave it empty to keep the stored one');
    for (const field of ['cf-turnstile-response', 'h-captcha-response', 'g-recaptcha-response'])
      expect(section()).toHaveTextContent(field);
    expect(section()).toHaveTextContent(
      /refused with 403, wrong keys with 500, and a provider that does not answer with 503/,
    );
  });

  it('explains a test to yourself and its limits', () => {
    renderWithProviders(<Newsletter />);
    expect(section()).toHaveTextContent(
      `to your own sign-in address only (never to an address you type), at most ${CAMPAIGNS.testsPerHour} an hour and ${CAMPAIGNS.testsPerDay} a day`,
    );
  });

  it('explains double opt-in, the consent statement, exactly-once sending and one-click unsubscribe', () => {
    renderWithProviders(<Newsletter />);
    expect(section()).toHaveTextContent(`it works once, for ${LISTS.confirmLinkTtlDays} days`);
    expect(section()).toHaveTextContent(/nobody imported is mailed before you give it/);
    expect(section()).toHaveTextContent(/one row per recipient and campaign and never a second/);
    expect(section()).toHaveTextContent('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(section()).toHaveTextContent(/no pixels, no rewritten links/);
  });

  it('states the limits as limits.ts sets them', () => {
    renderWithProviders(<Newsletter />);
    const limits = within(section()).getByRole('table', { name: 'Limits of lists and campaigns' });
    expect(limits).toHaveTextContent(
      `${LISTS.perClientPerMinute} a minute, ${LISTS.perClientPerDay} a day`,
    );
    expect(limits).toHaveTextContent(`${LISTS.perRecipientPerDay} a day from all lists together`);
    expect(limits).toHaveTextContent(`${CAMPAIGNS.perAccountPerSecond} a second`);
    expect(limits).toHaveTextContent(
      `Confirmation e-mails from one account’s lists${LISTS.perAccountConfirmationsPerDay} a day`,
    );
    expect(limits).toHaveTextContent(`${CAMPAIGNS.newAccountPerDay} a day`);
  });
});
