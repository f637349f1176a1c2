// Accessibility of every signed-in page in Chromium: axe-core (WCAG 2.0/2.1 A and AA) must find no
// serious or critical violation on the dashboard, the Forms tab (with a form, with the create
// dialog open, and on each tab of the edit dialog, reached with the arrow keys), the Messages tab
// (with messages, with one open, and the spam view), the booking pages, the analytics page (no
// site yet, its add form refusing) and the settings, at desktop (1280 px) and phone (390 px)
// width, where the sidebar's drawer is checked open too. Nothing may scroll sideways either.
// Failures list each violation's rule, impact, element and fix.
//
// Keyboard and phone use: focus returns to the control that opened a dialog or drawer once it
// closes (or, when that control went with the dialog's action, to the page's content), 'Skip to
// content' skips the dashboard's sidebar, and a phone gets one menu in the dashboard, not three.
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { useE2e } from './support/session';
import { signInThroughUi } from './support/auth';
import { seriousViolations } from './support/a11y';
import { createForm, serviceClient, serviceInsertEntry, signUp } from '../support/supabase-users';

type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

/**
 * One page load, then the states to check on it in order (a dialog opened, a view switched):
 * each state is checked where the previous one left the page, so a page is loaded only once.
 */
interface PageCheck {
  path: string;
  ready: (page: Page) => Promise<unknown>;
  states: { name: string; enter?: (page: Page) => Promise<unknown>; only?: number }[];
}

/** Whether `locator` has the keyboard focus. */
const hasFocus = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);

/** What has the focus, for failure messages: tag, name and text. */
const focusedElement = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el) return 'nothing';
    const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '';
    return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}> ${name}`;
  });

/**
 * Waits until `dialog` is open and holds the focus. Its focus trap starts a frame after it shows;
 * a dialog closed before that frame never took the focus and has none to hand back.
 */
async function focusedIn(dialog: Locator) {
  await dialog.waitFor();
  await expect
    .poll(() => dialog.evaluate((el) => el.contains(document.activeElement)), {
      message: 'focus inside the dialog once it opened',
    })
    .toBe(true);
}

/** Polls until `locator` has the focus; the failure says what has it instead. */
async function expectFocus(page: Page, locator: Locator, what: string) {
  await expect
    .poll(async () => ((await hasFocus(locator)) ? 'focused' : await focusedElement(page)), {
      message: `focus ${what}`,
    })
    .toBe('focused');
}

/**
 * Opens a dialog from `opener` with the keyboard, closes it with `close` and expects the focus
 * back on `opener`.
 */
async function roundTrip(
  page: Page,
  opener: Locator,
  dialogName: string | RegExp,
  close: (dialog: Locator) => Promise<unknown>,
) {
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page
    .getByRole('dialog', { name: dialogName })
    .or(page.getByRole('alertdialog', { name: dialogName }));
  await focusedIn(dialog);
  await close(dialog);
  await dialog.waitFor({ state: 'detached' });
  await expectFocus(page, opener, `after "${dialogName}" closed`);
}

const pressEscape = (page: Page) => () => page.keyboard.press('Escape');
/** Activates a button of the dialog from the keyboard. */
const pressButton = (dialog: Locator, name: string) => async () => {
  // The last of its name: the Edit dialog's footer 'Close', not the corner's.
  await dialog.getByRole('button', { name, exact: true }).last().focus();
  await dialog.page().keyboard.press('Enter');
};

const h1 = (page: Page, name: string | RegExp) =>
  page.getByRole('heading', { level: 1, name }).first().waitFor();
const card = (page: Page, name: string) => page.getByRole('article', { name });

/** The edit dialog's next tab, reached with ArrowRight: selected, focused, its section loaded. */
function editTab(name: string, loaded: (dialog: Locator) => Locator): PageCheck['states'] {
  return [
    {
      name: `edit form dialog, ${name} tab`,
      enter: async (p) => {
        await p.keyboard.press('ArrowRight');
        const dialog = p.getByRole('dialog', { name: 'Edit Form' });
        const tab = dialog.getByRole('tab', { name, selected: true });
        await tab.waitFor();
        await loaded(dialog).waitFor();
        expect(await tab.evaluate((el) => el === document.activeElement)).toBe(true);
      },
    },
  ];
}

const pages: PageCheck[] = [
  {
    path: '/dashboard',
    ready: (p) => p.getByText(/Welcome back/).waitFor(),
    states: [
      { name: 'dashboard' },
      {
        name: 'sidebar drawer',
        only: 390,
        enter: async (p) => {
          await p.getByRole('button', { name: 'Open menu', exact: true }).click();
          await p.getByRole('dialog').getByRole('navigation', { name: 'Dashboard' }).waitFor();
        },
      },
    ],
  },
  {
    path: '/dashboard/forms',
    ready: (p) => card(p, 'Contact').waitFor(),
    states: [
      { name: 'forms tab' },
      {
        name: 'create form dialog',
        enter: async (p) => {
          await p.getByRole('button', { name: '+ New Form' }).click();
          await p
            .getByRole('dialog', { name: 'Create New Form' })
            .getByLabel('Form name')
            .waitFor();
        },
      },
      {
        name: 'edit form dialog',
        enter: async (p) => {
          await p.keyboard.press('Escape');
          await p.getByRole('dialog').waitFor({ state: 'detached' });
          await card(p, 'Contact').getByRole('button', { name: 'Edit' }).click();
          const dialog = p.getByRole('dialog', { name: 'Edit Form' });
          await dialog.getByLabel('Form name').waitFor();
          // From here the arrow keys move between the tabs (the next states).
          await dialog.getByRole('tab', { name: 'Form' }).focus();
        },
      },
      ...editTab('Webhooks', (d) => d.getByRole('form', { name: 'Add a webhook' })),
      ...editTab('Autoresponder', (d) => d.getByRole('form', { name: 'Autoresponder' })),
      ...editTab('Spam protection', (d) => d.getByRole('form', { name: 'CAPTCHA' })),
      // The rule's number field and the forward-only warning are checked too.
      ...editTab('Retention', (d) => d.getByLabel('Days to keep messages')),
    ],
  },
  {
    path: '/dashboard/forms?tab=messages',
    ready: (p) => card(p, 'Message from Ada Reader').waitFor(),
    states: [
      { name: 'messages tab' },
      {
        name: 'message detail',
        enter: async (p) => {
          await card(p, 'Message from Ada Reader').click();
          const detail = p.getByRole('dialog', { name: 'Message from Ada Reader' });
          await detail.getByText('Other fields').waitFor();
        },
      },
      {
        name: 'spam view',
        enter: async (p) => {
          await p.getByRole('button', { name: 'Close message' }).click();
          await p.getByRole('dialog').waitFor({ state: 'detached' });
          await p.getByRole('button', { name: 'Spam', exact: true }).click();
          await card(p, 'Message from Spam Bot').waitFor();
        },
      },
    ],
  },
  {
    path: '/dashboard/booking',
    ready: (p) => h1(p, /Booking/),
    states: [{ name: 'booking' }],
  },
  {
    path: '/dashboard/booking/new',
    ready: (p) => h1(p, /./),
    states: [{ name: 'new booking form' }],
  },
  {
    // The owner has no site: the empty state with the form to add one, then its messages.
    path: '/dashboard/analytics',
    ready: (p) => p.getByRole('heading', { name: 'No sites yet' }).waitFor(),
    states: [
      { name: 'analytics, no sites' },
      {
        name: 'analytics, add form refused',
        enter: async (p) => {
          const form = p.getByRole('form', { name: 'Add a site' });
          await form.getByLabel('Domains').fill('https://example.com/, not_a_host');
          await form.getByRole('button', { name: 'Add site' }).click();
          await form.getByText('Enter a name for the site.').waitFor();
        },
      },
    ],
  },
  {
    path: '/settings',
    ready: (p) => p.getByLabel('Display name').waitFor(),
    states: [{ name: 'settings' }],
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
    // A retention rule: the inbox says so, and the form's settings show the number of days.
    const rule = await owner.client
      .from('form_retention')
      .insert({ form_id: formId, mode: 'days', days: 365 });
    if (rule.error) throw rule.error;
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
    for (const check of pages) {
      const states = check.states.filter((state) => !state.only || state.only === width);
      it(
        `${states.map((state) => state.name).join(', ')} at ${width}px`,
        { timeout: 120_000 },
        async () => {
          const page = await e2e.newPage({ width, height, storageState });
          await page.goto(check.path);
          await check.ready(page);
          for (const state of states) {
            await state.enter?.(page);
            await e2e.shot(page, `${state.name}-${width}`);
            const problems = await seriousViolations(page);
            const overflow = await page.evaluate(
              () => document.documentElement.scrollWidth - window.innerWidth,
            );
            if (overflow > 0) problems.push(`the page scrolls sideways by ${overflow}px`);
            // Soft, so every state of the page is reported; the count alone is compared, so the
            // message (every problem, readable) is the report.
            expect
              .soft(
                problems.length,
                `${state.name} at ${width}px:\n\n${problems.join('\n\n')}\n\nproblems`,
              )
              .toBe(0);
          }
        },
      );
    }
  }
  it(
    'returns the focus to the opener after every dialog and drawer',
    { timeout: 180_000 },
    async () => {
      const page = await e2e.newPage({ storageState });
      await page.goto('/dashboard/forms');
      await card(page, 'Contact').waitFor();
      const newForm = page.getByRole('button', { name: '+ New Form' });
      const contact = card(page, 'Contact');

      await roundTrip(page, newForm, 'Create New Form', pressEscape(page));
      await roundTrip(page, newForm, 'Create New Form', (d) => pressButton(d, 'Cancel')());
      await roundTrip(page, contact.getByRole('button', { name: 'Edit' }), 'Edit Form', (d) =>
        pressButton(d, 'Close')(),
      );
      await roundTrip(
        page,
        contact.getByRole('button', { name: 'Embed code' }),
        'Embed "Contact"',
        pressEscape(page),
      );
      await roundTrip(page, contact.getByRole('button', { name: 'Delete' }), /^Delete/, (d) =>
        pressButton(d, 'Cancel')(),
      );

      // Created: the New Form dialog gives way to the new form's code; closing that returns to
      // '+ New Form', where it all started.
      await newForm.focus();
      await page.keyboard.press('Enter');
      const create = page.getByRole('dialog', { name: 'Create New Form' });
      await create.getByLabel('Form name', { exact: true }).fill('Throwaway');
      await create.getByLabel('Allowed origin', { exact: true }).fill('https://example.com');
      await pressButton(create, 'Create')();
      const ready = page.getByRole('dialog', { name: '"Throwaway" is ready' });
      await focusedIn(ready);
      await page.keyboard.press('Escape');
      await ready.waitFor({ state: 'detached' });
      await expectFocus(page, newForm, "after the new form's code closed");

      // Deleted: the opener went with the form, so the focus goes to the page's content, not to
      // the start of the document.
      const throwaway = card(page, 'Throwaway');
      await throwaway.getByRole('button', { name: 'Delete' }).focus();
      await page.keyboard.press('Enter');
      const confirm = page.getByRole('alertdialog', { name: /^Delete/ });
      await focusedIn(confirm);
      await pressButton(confirm, 'Delete')();
      await throwaway.waitFor({ state: 'detached' });
      await confirm.waitFor({ state: 'detached' });
      await expect
        .poll(
          () =>
            page.evaluate(() => {
              const content = document.getElementById('dashboard-content');
              return !!content && content.contains(document.activeElement);
            }),
          { message: 'focus after the opener was deleted' },
        )
        .toBe(true);

      // The inbox: a message's drawer, closed with Escape and with its close button, and a
      // card's Delete, cancelled.
      await page.getByRole('tab', { name: /Messages/ }).click();
      const ada = card(page, 'Message from Ada Reader');
      await ada.waitFor();
      await roundTrip(page, ada, 'Message from Ada Reader', pressEscape(page));
      await roundTrip(page, ada, 'Message from Ada Reader', (d) =>
        pressButton(d, 'Close message')(),
      );
      await roundTrip(
        page,
        ada.getByRole('button', { name: 'Delete' }),
        'Delete this message?',
        (d) => pressButton(d, 'Cancel')(),
      );
      expect(await focusedElement(page)).toMatch(/Delete/);
    },
  );

  it("'Skip to content' skips the dashboard's sidebar", { timeout: 60_000 }, async () => {
    const page = await e2e.newPage({ storageState });
    await page.goto('/dashboard/forms');
    await card(page, 'Contact').waitFor();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await hasFocus(skip)).toBe(true);
    await page.keyboard.press('Enter');
    // The next stop is the page's own first control, not the sidebar's search.
    await page.keyboard.press('Tab');
    expect(await focusedElement(page)).toMatch(/Forms/);
    expect(
      await page.evaluate(() =>
        document.getElementById('dashboard-content')?.contains(document.activeElement),
      ),
    ).toBe(true);

    // A public page has no sidebar: the skip lands on its main content as before.
    await page.goto('/pricing');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.keyboard.press('Tab');
    expect(await hasFocus(skip)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
  });

  it(
    'gives a phone one menu in the dashboard, with everything in it',
    { timeout: 60_000 },
    async () => {
      const page = await e2e.newPage({ width: 390, height: 844, storageState });
      await page.goto('/dashboard');
      await page.getByText(/Welcome back/).waitFor();
      // Every control that opens a menu, a drawer or a dropdown, as the phone shows them.
      const menuButtons = page
        .locator('button[aria-haspopup], button[aria-expanded]')
        .filter({ visible: true });
      expect(await menuButtons.count()).toBe(1);
      const menu = menuButtons.first();
      expect(await menu.getAttribute('aria-label')).toBe('Open menu');

      await menu.focus();
      await page.keyboard.press('Enter');
      const drawer = page.getByRole('dialog', { name: 'Menu' });
      await drawer.getByRole('navigation', { name: 'Dashboard' }).waitFor();
      // The site's pages and the account are in it too.
      const site = drawer.getByRole('navigation', { name: 'Site' });
      for (const name of ['Tools', 'Pricing', 'Docs', 'Blog'])
        expect(await site.getByRole('link', { name }).isVisible()).toBe(true);
      expect(await drawer.getByRole('link', { name: 'Settings' }).isVisible()).toBe(true);
      expect(await drawer.getByRole('button', { name: 'Log out' }).isVisible()).toBe(true);
      await e2e.shot(page, 'one-menu-390');
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });
      await expect.poll(() => hasFocus(menu)).toBe(true);

      // A link in it goes there and closes it.
      await menu.click();
      await drawer
        .getByRole('navigation', { name: 'Site' })
        .getByRole('link', { name: 'Pricing' })
        .click();
      await page.waitForURL(/\/pricing$/);
      await drawer.waitFor({ state: 'detached' });
    },
  );
});
