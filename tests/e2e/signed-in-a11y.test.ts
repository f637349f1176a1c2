// Accessibility of every signed-in page in Chromium: axe-core (WCAG 2.0/2.1 A and AA) must find no
// serious or critical violation on the dashboard, the Forms tab (with a form, and with the create
// dialog open), the Messages tab (with messages, with one open, and the spam view), the booking
// pages and the settings, at desktop (1280 px) and phone (390 px) width, where the sidebar's
// drawer is checked open too. Nothing may scroll sideways either. Failures list each violation's
// rule, impact, element and fix.
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { useE2e } from './support/session';
import { signInThroughUi } from './support/auth';
import { seriousViolations } from './support/a11y';
import { createForm, serviceClient, serviceInsertEntry, signUp } from '../support/supabase-users';

type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

interface Screen {
  name: string;
  /** Brings a fresh signed-in page into the state to check. */
  open: (page: Page) => Promise<void>;
  /** Only at this width. */
  only?: number;
}

async function goto(page: Page, path: string, ready: (page: Page) => Promise<unknown>) {
  await page.goto(path);
  await ready(page);
}

const h1 = (page: Page, name: string | RegExp) =>
  page.getByRole('heading', { level: 1, name }).first().waitFor();

const screens: Screen[] = [
  {
    name: 'dashboard',
    open: (p) => goto(p, '/dashboard', (q) => q.getByText(/Welcome back/).waitFor()),
  },
  {
    name: 'forms tab',
    open: (p) =>
      goto(p, '/dashboard/forms', (q) => q.getByRole('article', { name: 'Contact' }).waitFor()),
  },
  {
    name: 'create form dialog',
    open: async (p) => {
      await goto(p, '/dashboard/forms', (q) =>
        q.getByRole('article', { name: 'Contact' }).waitFor(),
      );
      await p.getByRole('button', { name: '+ New Form' }).click();
      await p.getByRole('dialog', { name: 'Create New Form' }).getByLabel('Form name').waitFor();
    },
  },
  {
    name: 'messages tab',
    open: (p) =>
      goto(p, '/dashboard/forms?tab=messages', (q) =>
        q.getByRole('article', { name: 'Message from Ada Reader' }).waitFor(),
      ),
  },
  {
    name: 'message detail',
    open: async (p) => {
      await goto(p, '/dashboard/forms?tab=messages', (q) =>
        q.getByRole('article', { name: 'Message from Ada Reader' }).waitFor(),
      );
      await p.getByRole('article', { name: 'Message from Ada Reader' }).click();
      await p
        .getByRole('dialog', { name: 'Message from Ada Reader' })
        .getByText('Other fields')
        .waitFor();
    },
  },
  {
    name: 'spam view',
    open: async (p) => {
      await goto(p, '/dashboard/forms?tab=messages', (q) =>
        q.getByRole('article', { name: 'Message from Ada Reader' }).waitFor(),
      );
      await p.getByRole('button', { name: 'Spam', exact: true }).click();
      await p.getByRole('article', { name: 'Message from Spam Bot' }).waitFor();
    },
  },
  { name: 'booking', open: (p) => goto(p, '/dashboard/booking', (q) => h1(q, /Booking/)) },
  { name: 'new booking form', open: (p) => goto(p, '/dashboard/booking/new', (q) => h1(q, /./)) },
  {
    name: 'settings',
    open: (p) => goto(p, '/settings', (q) => q.getByLabel('Display name').waitFor()),
  },
  {
    name: 'sidebar drawer',
    only: 390,
    open: async (p) => {
      await goto(p, '/dashboard', (q) => q.getByText(/Welcome back/).waitFor());
      await p.getByRole('button', { name: 'Menu', exact: true }).click();
      await p.getByRole('dialog').getByRole('navigation', { name: 'Dashboard' }).waitFor();
    },
  },
];

const widths = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

describe('signed-in pages are accessible in Chromium', () => {
  const e2e = useE2e('signed-in-a11y');
  let storageState: StorageState;

  beforeAll(async () => {
    // One owner with a form, an inbox and a spam message, signed in once; each check starts
    // from that saved session.
    const owner = await signUp('Access Checker');
    const formId = await createForm(owner.client, 'Contact');
    await createForm(owner.client, 'Newsletter signup', { notify_email: false });
    const service = serviceClient();
    await serviceInsertEntry(service, formId, {
      name: 'Ada Reader',
      email: 'ada@example.org',
      message: 'A question about your product.\nSecond line.',
      data: { company: 'Analytical Engines', budget: '1000' },
    });
    await serviceInsertEntry(service, formId, { name: '', email: '', message: 'Anonymous note' });
    await serviceInsertEntry(service, formId, {
      name: 'Spam Bot',
      email: 'bot@example.org',
      message: 'Cheap pills',
      is_spam: true,
    });
    const context = await e2e.browser.newContext({ baseURL: e2e.url });
    const page = await context.newPage();
    await signInThroughUi(page, owner.email, owner.password);
    storageState = await context.storageState();
    await context.close();
  }, 120_000);

  for (const { width, height } of widths) {
    for (const screen of screens.filter((s) => !s.only || s.only === width)) {
      it(`${screen.name} at ${width}px`, { timeout: 90_000 }, async () => {
        const page = await e2e.newPage({ width, height, storageState });
        await screen.open(page);
        await e2e.shot(page, `${screen.name}-${width}`);
        const problems = await seriousViolations(page);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        if (overflow > 0) problems.push(`the page scrolls sideways by ${overflow}px`);
        // The count alone is compared, so the message (every problem, readable) is the report.
        expect(
          problems.length,
          `${screen.name} at ${width}px:\n\n${problems.join('\n\n')}\n\nproblems`,
        ).toBe(0);
      });
    }
  }
});
