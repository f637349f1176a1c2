import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SLOW, renderWithProviders } from '../../../components/testing/render';
import { notify } from '../../../components/toaster';
import type { Tables } from '../../../lib/database';
import { failRequests, pgError, sentTo } from '../../../components/testing/supabase-server';
import { makeForm, seedCaptcha } from '../testing/fixtures';
import { CaptchaSection } from './captcha-section';

vi.mock('../../../components/toaster', () => ({ notify: vi.fn() }));

beforeEach(() => {
  vi.mocked(notify).mockReset();
});

function renderSection(form: Tables<'forms'>) {
  seedCaptcha([form]);
  renderWithProviders(<CaptchaSection form={form} />);
  return within(screen.getByRole('form', { name: 'CAPTCHA' }));
}

const state = () => screen.getByTestId('captcha-state');

describe('CAPTCHA settings', () => {
  it('turns CAPTCHA on: checks both keys inline, then sends them and keeps only "secret set"', async () => {
    const user = userEvent.setup();
    const form = makeForm();
    const section = renderSection(form);
    expect(state()).toHaveTextContent(/^Off/);
    expect(section.queryByLabelText(/Secret key/)).toBeNull();

    await user.selectOptions(section.getByLabelText('Provider'), 'Cloudflare Turnstile');
    await user.type(section.getByLabelText(/Site key/), 'x y');
    await user.click(section.getByRole('button', { name: 'Save CAPTCHA' }));
    expect(
      await section.findByText('Enter the site key exactly as the provider shows it.'),
    ).toBeVisible();
    expect(section.getByText('Enter the secret key.')).toBeVisible();
    expect(sentTo('post', 'rpc/set_form_captcha')).toEqual([]);

    await user.clear(section.getByLabelText(/Site key/));
    await user.type(section.getByLabelText(/Site key/), 'site-a1');
    const secret = section.getByLabelText(/Secret key/);
    expect(secret).toHaveAttribute('type', 'password');
    await user.type(secret, 'sec-a1');
    await user.click(section.getByRole('button', { name: 'Save CAPTCHA' }));

    await vi.waitFor(
      () =>
        expect(notify).toHaveBeenCalledWith(
          'success',
          'CAPTCHA saved',
          'Copy the embed code again: it now includes the Cloudflare Turnstile widget.',
        ),
      SLOW,
    );
    expect(sentTo('post', 'rpc/set_form_captcha')).toContainEqual({
      p_form_id: form.id,
      p_provider: 'turnstile',
      p_site_key: 'site-a1',
      p_secret: 'sec-a1',
    });
    expect(state()).toHaveTextContent(
      'On: every post needs a Cloudflare Turnstile check. Secret key set.',
    );
    // What was typed is gone from the page; only the fact that a secret is set remains.
    expect(section.getByLabelText(/Secret key/)).toHaveValue('');
    expect(section.getByLabelText(/Secret key/)).toHaveAttribute('placeholder', 'Secret key set');
    expect(document.body.innerHTML).not.toContain('sec-a1');
  });

  it('warns beside Save, before saving, that pages with the old embed code must be updated', async () => {
    const user = userEvent.setup();
    const form = makeForm();
    const section = renderSection(form);
    const warning = () => screen.queryByTestId('captcha-embed-warning');
    expect(warning()).toBeNull();

    await user.selectOptions(section.getByLabelText('Provider'), 'Cloudflare Turnstile');
    expect(warning()).toHaveTextContent(
      'Update your page: posts without the Cloudflare Turnstile widget will be refused',
    );
    expect(warning()).toHaveTextContent(/Replace the embed code you pasted before/);
    // Beside the button that would turn it on.
    expect(warning()!.nextElementSibling).toContainElement(
      section.getByRole('button', { name: 'Save CAPTCHA' }),
    );

    await user.type(section.getByLabelText(/Site key/), 'site-a1');
    await user.type(section.getByLabelText(/Secret key/), 'sec-a1');
    await user.click(section.getByRole('button', { name: 'Save CAPTCHA' }));
    await vi.waitFor(() => expect(notify).toHaveBeenCalled(), SLOW);
    // Saved: nothing more to warn about while the provider stays.
    expect(warning()).toBeNull();
    // Another provider is another widget: the warning is back; off needs none.
    await user.selectOptions(section.getByLabelText('Provider'), 'hCaptcha');
    expect(warning()).toHaveTextContent('hCaptcha widget');
    await user.selectOptions(section.getByLabelText('Provider'), 'Off');
    expect(warning()).toBeNull();
  });

  it('keeps a set secret when left empty, and asks for one when the provider changes', async () => {
    const user = userEvent.setup();
    const form = makeForm({ captcha_provider: 'hcaptcha', captcha_site_key: 'site-1' });
    const section = renderSection(form);
    expect(state()).toHaveTextContent('hCaptcha');
    expect(section.getByLabelText(/Site key/)).toHaveValue('site-1');
    expect(section.getByText(/A secret key is set\. Leave this empty to keep it/)).toBeVisible();

    await user.clear(section.getByLabelText(/Site key/));
    await user.type(section.getByLabelText(/Site key/), 'site-2');
    await user.click(section.getByRole('button', { name: 'Save CAPTCHA' }));
    await vi.waitFor(
      () =>
        expect(sentTo('post', 'rpc/set_form_captcha')).toContainEqual({
          p_form_id: form.id,
          p_provider: 'hcaptcha',
          p_site_key: 'site-2',
          p_secret: null,
        }),
      SLOW,
    );

    await user.selectOptions(section.getByLabelText('Provider'), 'Google reCAPTCHA v2 (checkbox)');
    await user.click(section.getByRole('button', { name: 'Save CAPTCHA' }));
    expect(await section.findByText('Enter the secret key.')).toBeVisible();
    expect(sentTo('post', 'rpc/set_form_captcha')).toHaveLength(1);
  });

  it('turns CAPTCHA off', async () => {
    const user = userEvent.setup();
    const form = makeForm({ captcha_provider: 'recaptcha', captcha_site_key: 'site-1' });
    const section = renderSection(form);
    await user.selectOptions(section.getByLabelText('Provider'), 'Off');
    expect(section.queryByLabelText(/Secret key/)).toBeNull();
    await user.click(section.getByRole('button', { name: 'Save CAPTCHA' }));
    await vi.waitFor(() => expect(state()).toHaveTextContent(/^Off/), SLOW);
    expect(sentTo('post', 'rpc/set_form_captcha')).toContainEqual({
      p_form_id: form.id,
      p_provider: null,
      p_site_key: null,
      p_secret: null,
    });
    expect(notify).toHaveBeenCalledWith(
      'success',
      'CAPTCHA saved',
      expect.stringMatching(/no longer need/),
    );
  });

  it('says why a save failed, in the section and a toast', async () => {
    const user = userEvent.setup();
    const section = renderSection(
      makeForm({ captcha_provider: 'turnstile', captcha_site_key: 's' }),
    );
    failRequests(
      'post',
      'rpc/set_form_captcha',
      pgError('22023', 'Enter the secret key exactly as the provider shows it.'),
    );
    await user.click(section.getByRole('button', { name: 'Save CAPTCHA' }));
    expect(await section.findByRole('alert', {}, SLOW)).toHaveTextContent(
      'Enter the secret key exactly as the provider shows it.',
    );
    expect(notify).toHaveBeenCalledWith(
      'error',
      'CAPTCHA not saved',
      'Enter the secret key exactly as the provider shows it.',
    );
    failRequests('post', 'rpc/set_form_captcha', pgError('08006', 'network'));
    await user.click(section.getByRole('button', { name: 'Save CAPTCHA' }));
    expect(await section.findByText(/Check your connection and try again/)).toBeVisible();
    expect(state()).toHaveTextContent('Turnstile');
  });
});
