// Webhooks in Chromium, as an owner sets one up in a form's settings: add a URL (a receiver on this
// machine), send a test event and see it delivered in the log, then a real post's delivery; axe
// finds nothing serious in the open dialog, on a desktop and at 390 px.
import { describe, expect, it } from 'vitest';
import { remote } from '../support/target';
import { createForm } from '../support/supabase-users';
import { postFields, ORIGIN } from '../endpoint/support';
import { startReceiver } from '../endpoint/webhook-receiver';
import { seriousViolations } from './support/a11y';
import { signedInUser } from './support/auth';
import { formCard, openFormsTab } from './support/forms';
import { useE2e } from './support/session';
import { testStack } from '../support/stack.ts';

describe.skipIf(remote)('webhooks in Chromium', () => {
  const e2e = useE2e('webhooks');

  it(
    'adds a webhook, sends a test event and shows each delivery',
    { timeout: 120_000 },
    async () => {
      const receiver = await startReceiver();
      try {
        const page = await e2e.newPage({ width: 390, height: 844 });
        const owner = await signedInUser(page, 'Hook Keeper');
        const formId = await createForm(owner.client, 'Hooked', { allowed_origin: ORIGIN });
        await openFormsTab(page);
        await formCard(page, 'Hooked').getByRole('button', { name: 'Edit' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('tab', { name: 'Webhooks' }).click();
        await dialog.getByText('No webhooks yet', { exact: false }).waitFor();

        const add = dialog.getByRole('form', { name: 'Add a webhook' });
        await add.getByRole('textbox', { name: /Webhook URL/ }).fill(receiver.url('/e2e'));
        await add.getByRole('button', { name: 'Add webhook' }).click();
        const list = dialog.getByRole('list', { name: 'Webhooks of this form' });
        await list.getByText(receiver.url('/e2e')).waitFor();

        await list.getByRole('button', { name: 'Send test event' }).click();
        const log = dialog.getByRole('list', { name: 'Latest deliveries' });
        await log.getByText('Delivered').waitFor();
        expect(await log.innerText()).toContain('HTTP 200');
        expect(receiver.received('/e2e')).toHaveLength(1);
        await e2e.shot(page, 'test-event-delivered-390');
        expect(await seriousViolations(page)).toEqual([]);

        // A real post: its delivery joins the log (polled while it is on its way).
        const res = await postFields(testStack().apiUrl, formId, {
          email: 'reader@example.org',
          message: 'Hello hooks',
        });
        expect(res.status).toBe(200);
        await page.setViewportSize({ width: 1280, height: 800 });
        await list.getByRole('button', { name: 'Hide deliveries' }).click();
        await list.getByRole('button', { name: 'Show deliveries' }).click();
        await log.getByText(/New message/).waitFor();
        expect(receiver.received('/e2e')).toHaveLength(2);
        await e2e.shot(page, 'webhook-log');
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await receiver.close();
      }
    },
  );
});
