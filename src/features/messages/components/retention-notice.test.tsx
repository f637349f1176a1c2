import { beforeEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { SLOW, renderWithProviders } from '../../../components/testing/render';
import { supabaseDb } from '../../../components/testing/supabase-server';
import { FORM_BETA, FORM_CONTACT, makeMessage, seedInbox } from '../testing/fixtures';
import { MessagesPanel } from './messages-panel';

const renderPanel = (route = '/dashboard/forms?tab=messages') =>
  renderWithProviders(<MessagesPanel forms={[FORM_CONTACT, FORM_BETA]} />, { route });

beforeEach(() => {
  seedInbox([makeMessage({ name: 'Ada Lovelace' })]);
});

describe('the inbox’s retention notice', () => {
  it('names each form with a rule when all forms are shown', async () => {
    supabaseDb.seed({
      form_retention: [
        { form_id: FORM_CONTACT.id, mode: 'days', days: 30 },
        { form_id: FORM_BETA.id, mode: 'forward_only', days: null },
      ],
    });
    renderPanel();
    const note = await screen.findByRole('note', { name: 'Retention' }, SLOW);
    expect(note).toHaveTextContent(
      `${FORM_CONTACT.name}: messages are deleted after 30 days. ${FORM_BETA.name}: forward only: messages are deleted once delivered.`,
    );
  });

  it('speaks of the form shown only, and says nothing for a form without a rule', async () => {
    supabaseDb.seed({ form_retention: [{ form_id: FORM_BETA.id, mode: 'days', days: 1 }] });
    const beta = renderPanel(`/dashboard/forms?tab=messages&form=${FORM_BETA.id}`);
    expect(await screen.findByRole('note', { name: 'Retention' }, SLOW)).toHaveTextContent(
      'This form has a retention rule: messages are deleted after 1 day.',
    );
    beta.unmount();

    renderPanel(`/dashboard/forms?tab=messages&form=${FORM_CONTACT.id}`);
    expect(
      await screen.findByRole('article', { name: 'Message from Ada Lovelace' }, SLOW),
    ).toBeVisible();
    expect(screen.queryByRole('note', { name: 'Retention' })).toBeNull();
  });
});
