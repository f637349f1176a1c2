// /custom's calls to action lead to the project enquiry form, which posts to the site's own
// tinyback form through the public endpoint and reports success and refusals in the page.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders, SLOW } from '../../components/testing/render';
import { env } from '../../config/env';
import { CUSTOM_ENQUIRY_FORM_ID, formEndpoint } from '../../config/site';
import { CustomPage } from './custom-page';
import { ProjectEnquiryForm } from './components/project-enquiry-form';

const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

async function fillIn(user: ReturnType<typeof userEvent.setup>) {
  const form = screen.getByRole('form', { name: 'Tell us about your project' });
  // Pasted rather than typed key by key: the test is about what is sent, not about typing.
  for (const [label, value] of [
    [/^Name/, 'Grace Hopper'],
    [/^Email/, 'grace@example.com'],
    [/^Your project/, 'A booking site.'],
  ] as const) {
    await user.click(within(form).getByLabelText(label));
    await user.paste(value);
  }
  await user.click(within(form).getByRole('button', { name: 'Send project details' }));
  return form;
}

describe('CustomPage', { timeout: 30_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('points both calls to action at the enquiry form, never at mailto:', () => {
    renderWithProviders(<CustomPage />);
    const main = document.body;
    expect(main.querySelectorAll('a[href^="mailto:"]')).toHaveLength(0);
    expect(screen.getByRole('link', { name: 'Tell us about your project' })).toHaveAttribute(
      'href',
      '#project',
    );
    expect(screen.getByRole('link', { name: 'Start a project' })).toHaveAttribute(
      'href',
      '#project',
    );
    expect(document.getElementById('project')).toContainElement(
      screen.getByRole('form', { name: 'Tell us about your project' }),
    );
  });

  it('checks the fields before anything is sent', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const user = userEvent.setup();
    renderWithProviders(<ProjectEnquiryForm />);
    await user.click(screen.getByRole('button', { name: 'Send project details' }));
    expect(await screen.findByText('Please tell us your name.', {}, SLOW)).toBeInTheDocument();
    expect(screen.getByText('Please enter your email address.')).toBeInTheDocument();
    expect(screen.getByText('Please tell us a little about your project.')).toBeInTheDocument();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("posts to the site's own form on the endpoint and confirms in the page", async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(jsonResponse(200, { ok: true, id: 'e1' }));
    const user = userEvent.setup();
    renderWithProviders(<ProjectEnquiryForm />);
    await fillIn(user);
    expect(
      await screen.findByText('Thanks! We have your project details.', {}, SLOW),
    ).toBeInTheDocument();
    expect(fetchSpy).toHaveBeenCalledOnce();
    const [url, init] = fetchSpy.mock.calls[0]!;
    expect(url).toBe(formEndpoint(env.supabaseUrl, CUSTOM_ENQUIRY_FORM_ID));
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('Accept')).toBe('application/json');
    const body = init?.body as URLSearchParams;
    expect(body.get('name')).toBe('Grace Hopper');
    expect(body.get('email')).toBe('grace@example.com');
    expect(body.get('message')).toBe('A booking site.');
    expect(body.get('_replyto')).toBe('grace@example.com');
    expect(body.get('_gotcha')).toBe('');
  });

  it("shows the endpoint's refusal and puts a field's problem under that field", async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse(422, {
        ok: false,
        code: 'invalid_fields',
        error: 'Some fields are not valid.',
        fields: { email: 'This email address is not valid.' },
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<ProjectEnquiryForm />);
    const form = await fillIn(user);
    expect(await within(form).findByRole('alert', {}, SLOW)).toHaveTextContent(
      'Some fields are not valid.',
    );
    expect(within(form).getByText('This email address is not valid.')).toBeInTheDocument();
    // The visitor's text stays for another try.
    expect(within(form).getByLabelText(/^Your project/)).toHaveValue('A booking site.');
  });

  it('says so when the network fails', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    const user = userEvent.setup();
    renderWithProviders(<ProjectEnquiryForm />);
    const form = await fillIn(user);
    await waitFor(
      () => expect(within(form).getByRole('alert')).toHaveTextContent(/could not be sent/),
      SLOW,
    );
  });
});
