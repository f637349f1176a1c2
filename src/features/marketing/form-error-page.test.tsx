import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { refusalPageUrl } from '../../../supabase/functions/forms/refusal-page';
import { ERRORS } from '../../../supabase/functions/forms/errors';
import { renderWithProviders } from '../../components/testing/render';
import { FormErrorPage } from './form-error-page';
import { GENERAL_REFUSAL, REFUSAL_TEXTS, refusalText, waitText } from './form-error-texts';

function withReferrer(referrer: string, historyLength = 2) {
  vi.spyOn(document, 'referrer', 'get').mockReturnValue(referrer);
  vi.spyOn(window.history, 'length', 'get').mockReturnValue(historyLength);
}

/** The page at the address the endpoint sends a refused browser to. */
function renderAt(err: Parameters<typeof refusalPageUrl>[1]) {
  const url = new URL(refusalPageUrl('https://tinyback.example', err));
  return renderWithProviders(<FormErrorPage />, { route: url.pathname + url.search });
}

const heading = () => screen.getByRole('heading', { level: 1 });

describe('FormErrorPage', () => {
  afterEach(() => vi.restoreAllMocks());

  it('names the fields at fault and leads back to the form through the history', async () => {
    withReferrer('https://shop.example.com/contact');
    const back = vi.spyOn(window.history, 'back').mockImplementation(() => {});
    renderAt(ERRORS.invalidFields({ email: 'Enter a valid e-mail address.', phone: 'x' }));
    expect(heading()).toHaveTextContent('Some answers need another look');
    expect(screen.getByText('Check these fields:')).toBeInTheDocument();
    expect(screen.getByTestId('refused-fields')).toHaveTextContent('email');
    expect(screen.getByTestId('refused-fields')).toHaveTextContent('phone');
    expect(
      screen.getByText(/Go back to the form: your browser keeps what you typed\. Correct it/),
    ).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Go back to the form' }));
    expect(back).toHaveBeenCalledOnce();
    // And the site itself, when the browser told us which it was.
    expect(screen.getByRole('link', { name: 'Back to shop.example.com' })).toHaveAttribute(
      'href',
      'https://shop.example.com',
    );
    expect(document.title).toBe('Message not sent · tinyback.tools');
    expect(document.head.querySelector('meta[name="robots"]')).toHaveAttribute(
      'content',
      'noindex, nofollow',
    );
  });

  it('says how long to wait when a limit was hit or a service was down', () => {
    withReferrer('');
    renderAt(ERRORS.rateLimited(42));
    expect(heading()).toHaveTextContent('Too many messages in a short time');
    expect(
      screen.getByText(/^Wait about 42 seconds, then go back to the form/),
    ).toBeInTheDocument();
  });

  it('tells a problem of the website apart from one of the visitor', () => {
    withReferrer('');
    renderAt(ERRORS.originNotAllowed());
    expect(heading()).toHaveTextContent('This form does not take messages from this website');
    expect(screen.getByText(/its owner needs to fix it/)).toBeInTheDocument();
    expect(screen.queryByText(/Correct it|send it again/)).toBeNull();
    // Still a way back, to copy what was typed.
    expect(screen.getByRole('button', { name: 'Go back to the form' })).toBeInTheDocument();
  });

  it.each([
    ['The form was empty', ERRORS.emptySubmission()],
    ['Please complete the CAPTCHA', ERRORS.captchaRequired()],
    ['The CAPTCHA could not be verified', ERRORS.captchaFailed()],
    ['The CAPTCHA could not be checked just now', ERRORS.captchaUnavailable()],
    ['This form’s spam check is not set up correctly', ERRORS.captchaMisconfigured()],
    ['This form no longer exists', ERRORS.formNotFound()],
    ['Your message is too long', ERRORS.bodyTooLarge()],
    ['Files cannot be sent with this form', ERRORS.fileUpload()],
    ['This form is not set up correctly', ERRORS.unsupportedType()],
    ['Your message could not be saved just now', ERRORS.storageFailed()],
  ])('says “%s” for its refusal', (title, err) => {
    withReferrer('');
    renderAt(err);
    expect(heading()).toHaveTextContent(title);
  });

  it('shows nothing from a crafted link but known words and name-shaped fields', () => {
    withReferrer('', 1);
    renderWithProviders(<FormErrorPage />, {
      route:
        '/form-error?code=your_account_is_locked&fields=' +
        encodeURIComponent('Call +1 555 0100 now,<img src=x>'),
    });
    expect(heading()).toHaveTextContent(GENERAL_REFUSAL.title);
    expect(document.body.textContent).not.toMatch(/555|locked|img/);
    expect(screen.queryByTestId('refused-fields')).toBeNull();
    // No history and no referrer: nowhere to lead.
    expect(screen.getByText('You can close this page now.')).toBeInTheDocument();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('never links into tinyback itself or to a javascript: referrer', () => {
    withReferrer(`${window.location.origin}/custom`, 1);
    renderAt(ERRORS.formNotFound());
    expect(screen.queryByRole('link')).toBeNull();
    vi.restoreAllMocks();
    withReferrer('javascript:alert(1)', 1);
    renderAt(ERRORS.formNotFound());
    expect(screen.queryAllByRole('link')).toHaveLength(0);
  });
});

describe('refusal texts', () => {
  it('knows every code and falls back to the general words', () => {
    expect(refusalText('rate_limited')).toBe(REFUSAL_TEXTS.rate_limited);
    expect(refusalText('quota_exceeded').remedy).toBe('owner');
    expect(refusalText('toString')).toBe(GENERAL_REFUSAL);
    expect(refusalText(null)).toBe(GENERAL_REFUSAL);
  });

  it('rounds a wait up into words', () => {
    expect(waitText(1)).toBe('about 1 second');
    expect(waitText(59)).toBe('about 59 seconds');
    expect(waitText(61)).toBe('about 2 minutes');
    expect(waitText(3600)).toBe('about 1 hour');
    expect(waitText(5 * 86_400)).toBe('about 5 days');
  });
});
