import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { SLOW, renderWithProviders } from '../../../components/testing/render';
import { requestsTo } from '../../../components/testing/supabase-server';
import { makeForm, seedForms } from '../testing/fixtures';
import { FormConversion } from './form-conversion';

describe('FormConversion', () => {
  it('shows the views of the form’s pages, its submissions and the rate over 30 days', async () => {
    const form = makeForm();
    seedForms({
      forms: [form],
      conversion: { [form.id]: { views: 1240, submissions: 37, conversion: 3 } },
    });
    renderWithProviders(<FormConversion formId={form.id} />);
    expect(
      await screen.findByText(
        '1,240 views · 37 submissions · 3.0% conversion',
        { exact: false },
        SLOW,
      ),
    ).toHaveTextContent(/\(last 30 days\)$/);
    expect(requestsTo('post', 'rpc/form_conversion')[0]?.body).toEqual({
      p_form_id: form.id,
      p_days: 30,
    });
  });

  it('leaves the rate out when the pages had no views', async () => {
    const form = makeForm();
    seedForms({
      forms: [form],
      conversion: { [form.id]: { views: 0, submissions: 1, conversion: null } },
    });
    renderWithProviders(<FormConversion formId={form.id} />);
    expect(
      await screen.findByText('0 views · 1 submission', { exact: false }, SLOW),
    ).not.toHaveTextContent(/conversion/);
  });

  it('says what brings the numbers when no message came from a page with the tracker', async () => {
    const form = makeForm();
    seedForms({ forms: [form] });
    renderWithProviders(<FormConversion formId={form.id} />);
    expect(await screen.findByText(/Add the analytics snippet/, {}, SLOW)).toBeInTheDocument();
    expect(screen.queryByText(/views ·/)).toBeNull();
  });
});
