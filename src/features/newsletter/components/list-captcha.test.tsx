// A list's signup CAPTCHA, in the Signup form tab: turned on with both keys checked inline, the
// secret kept when left empty, the database's refusals shown as it words them, and the signup
// form's code carrying the widget once saved.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SLOW, renderWithProviders } from '../../../components/testing/render';
import { pgError, sentTo, supabaseDb, type Row } from '../../../components/testing/supabase-server';
import { notify } from '../../../components/toaster';
import { useLists } from '../api/get-lists';
import type { NewsletterList } from '../newsletter-types';
import { makeList, seedNewsletter } from '../testing/fixtures';
import { SignupCode } from './signup-code';

vi.mock('../../../components/toaster', () => ({ notify: vi.fn() }));

beforeEach(() => {
  vi.mocked(notify).mockReset();
});

/** set_list_captcha() over the stored lists, with the database's checks that the page meets. */
function serveSetListCaptcha() {
  const secrets = new Map<string, string>();
  supabaseDb.rpc('set_list_captcha', (args: Row) => {
    const rows = supabaseDb.rows('newsletter_lists');
    const index = rows.findIndex((row) => row.id === args.p_list_id);
    if (index === -1) throw pgError('PT404', 'This list no longer exists.');
    const listId = String(args.p_list_id);
    if (args.p_provider === null) {
      secrets.delete(listId);
      rows[index] = { ...rows[index], captcha_provider: null, captcha_site_key: null };
      return { captcha_provider: null, captcha_site_key: null };
    }
    if (args.p_secret === null) {
      if (rows[index].captcha_provider !== args.p_provider || !secrets.has(listId))
        throw pgError('22023', 'Enter the secret key.');
    } else secrets.set(listId, String(args.p_secret));
    rows[index] = {
      ...rows[index],
      captcha_provider: args.p_provider,
      captcha_site_key: args.p_site_key,
    };
    return { captcha_provider: args.p_provider, captcha_site_key: args.p_site_key };
  });
  return secrets;
}

/** The Signup form tab as the list page shows it: the list read from the lists query. */
function SignupTab({ id }: { id: string }) {
  const lists = useLists();
  const list = lists.data?.find((row) => row.id === id);
  return list ? <SignupCode list={list} /> : null;
}

async function renderTab(list: NewsletterList) {
  seedNewsletter({ lists: [list] });
  const secrets = serveSetListCaptcha();
  if (list.captcha_provider) secrets.set(list.id, 'stored-secret');
  renderWithProviders(<SignupTab id={list.id} />);
  const form = await screen.findByRole('form', { name: 'Signup CAPTCHA' }, SLOW);
  return { section: within(form), secrets };
}

const state = () => screen.getByTestId('list-captcha-state');
const htmlCode = () =>
  (screen.getByRole('textbox', { name: 'Signup form code (HTML)' }) as HTMLTextAreaElement).value;

describe('a list’s signup CAPTCHA', { timeout: 30_000 }, () => {
  it('turns it on: checks both keys inline, saves them, and the signup code gets the widget', async () => {
    const user = userEvent.setup();
    const list = makeList({ allowed_origin: 'https://blog.example.com' });
    const { section, secrets } = await renderTab(list);
    expect(state()).toHaveTextContent('Signups are checked by the spam trap and rate limits only.');
    expect(section.queryByLabelText(/Secret key/)).toBeNull();
    expect(htmlCode()).not.toContain('data-sitekey');

    await user.selectOptions(section.getByLabelText('Provider'), 'Cloudflare Turnstile');
    // Where the keys are made, for the list's own site.
    const keysLink = section.getByRole('link', { name: 'Cloudflare Turnstile’s dashboard' });
    expect(keysLink).toHaveAttribute('href', 'https://dash.cloudflare.com/?to=/:account/turnstile');
    expect(section.getByText('https://blog.example.com')).toBeVisible();
    expect(screen.getByTestId('list-captcha-code-warning')).toHaveTextContent(
      'Update your page: signups without the Cloudflare Turnstile widget will be refused',
    );

    await user.type(section.getByLabelText(/Site key/), 'x y');
    await user.click(section.getByRole('button', { name: 'Save CAPTCHA' }));
    expect(
      await section.findByText('Enter the site key exactly as the provider shows it.'),
    ).toBeVisible();
    expect(section.getByText('Enter the secret key.')).toBeVisible();
    expect(sentTo('post', 'rpc/set_list_captcha')).toEqual([]);

    await user.clear(section.getByLabelText(/Site key/));
    await user.type(section.getByLabelText(/Site key/), '0x4AAA-site');
    const secret = section.getByLabelText(/Secret key/);
    expect(secret).toHaveAttribute('type', 'password');
    await user.type(secret, 'sec-a1');
    await user.click(section.getByRole('button', { name: 'Save CAPTCHA' }));

    await vi.waitFor(
      () =>
        expect(notify).toHaveBeenCalledWith(
          'success',
          'CAPTCHA saved',
          'Copy the signup form’s code again: it now includes the Cloudflare Turnstile widget.',
        ),
      SLOW,
    );
    expect(sentTo('post', 'rpc/set_list_captcha')).toEqual([
      {
        p_list_id: list.id,
        p_provider: 'turnstile',
        p_site_key: '0x4AAA-site',
        p_secret: 'sec-a1',
      },
    ]);
    expect(secrets.get(list.id)).toBe('sec-a1');
    await vi.waitFor(() =>
      expect(state()).toHaveTextContent(
        'Every signup needs a Cloudflare Turnstile check. Secret key set.',
      ),
    );
    expect(htmlCode()).toContain('<div class="cf-turnstile" data-sitekey="0x4AAA-site"></div>');
    expect(htmlCode()).toContain('https://challenges.cloudflare.com/turnstile/v0/api.js');
    expect(screen.queryByTestId('list-captcha-code-warning')).toBeNull();
    // What was typed is gone from the page; only the fact that a secret is set remains.
    expect(section.getByLabelText(/Secret key/)).toHaveValue('');
    expect(section.getByLabelText(/Secret key/)).toHaveAttribute('placeholder', 'Secret key set');
    expect(document.body.innerHTML).not.toContain('sec-a1');
  });

  it('keeps the stored secret when left empty, and asks for one when the provider changes', async () => {
    const user = userEvent.setup();
    const list = makeList({ captcha_provider: 'hcaptcha', captcha_site_key: 'site-1' });
    const { section } = await renderTab(list);
    expect(state()).toHaveTextContent('hCaptcha');
    expect(section.getByLabelText(/Site key/)).toHaveValue('site-1');
    expect(section.getByText(/Leave this empty to keep it/)).toBeVisible();

    await user.clear(section.getByLabelText(/Site key/));
    await user.type(section.getByLabelText(/Site key/), 'site-2');
    await user.click(section.getByRole('button', { name: 'Save CAPTCHA' }));
    await vi.waitFor(
      () =>
        expect(sentTo('post', 'rpc/set_list_captcha')).toEqual([
          { p_list_id: list.id, p_provider: 'hcaptcha', p_site_key: 'site-2', p_secret: null },
        ]),
      SLOW,
    );
    await vi.waitFor(() => expect(htmlCode()).toContain('data-sitekey="site-2"'));

    await user.selectOptions(section.getByLabelText('Provider'), 'Google reCAPTCHA v2 (checkbox)');
    await user.click(section.getByRole('button', { name: 'Save CAPTCHA' }));
    expect(await section.findByText('Enter the secret key.')).toBeVisible();
    expect(sentTo('post', 'rpc/set_list_captcha')).toHaveLength(1);
  });

  it('shows the database’s refusal in its own words, in the form and a toast', async () => {
    const user = userEvent.setup();
    const list = makeList({ captcha_provider: 'hcaptcha', captcha_site_key: 'site-1' });
    const { section, secrets } = await renderTab(list);
    // The stored secret is gone (another tab turned it off and on): the database asks for one.
    secrets.clear();
    await user.click(section.getByRole('button', { name: 'Save CAPTCHA' }));
    const alert = await section.findByRole('alert', {}, SLOW);
    expect(alert).toHaveTextContent('Enter the secret key.');
    expect(notify).toHaveBeenCalledWith('error', 'CAPTCHA not saved', 'Enter the secret key.');
  });

  it('says when the list is gone', async () => {
    const user = userEvent.setup();
    const list = makeList({ captcha_provider: 'hcaptcha', captcha_site_key: 'site-1' });
    const { section } = await renderTab(list);
    supabaseDb.setRows('newsletter_lists', []);
    await user.click(section.getByRole('button', { name: 'Save CAPTCHA' }));
    expect(await section.findByRole('alert', {}, SLOW)).toHaveTextContent(
      'This list no longer exists. Reload the page.',
    );
  });

  it('turns it off, and the signup code loses the widget', async () => {
    const user = userEvent.setup();
    const list = makeList({ captcha_provider: 'recaptcha', captcha_site_key: 'site-1' });
    const { section } = await renderTab(list);
    expect(htmlCode()).toContain('class="g-recaptcha"');
    await user.selectOptions(section.getByLabelText('Provider'), 'Off');
    expect(section.queryByLabelText(/Secret key/)).toBeNull();
    await user.click(section.getByRole('button', { name: 'Save CAPTCHA' }));
    await vi.waitFor(
      () =>
        expect(state()).toHaveTextContent(
          'Signups are checked by the spam trap and rate limits only.',
        ),
      SLOW,
    );
    expect(sentTo('post', 'rpc/set_list_captcha')).toEqual([
      { p_list_id: list.id, p_provider: null, p_site_key: null, p_secret: null },
    ]);
    expect(notify).toHaveBeenCalledWith(
      'success',
      'CAPTCHA saved',
      'Signups no longer need a CAPTCHA; you can remove the widget from your page.',
    );
    expect(htmlCode()).not.toMatch(/recaptcha|data-sitekey/);
  });
});
