import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount } from './support/accounts.js';
import { type AddedNode, addNode, admin } from './support/admin.js';
import { launchBrowser, waitForTransitions } from './support/browser.js';
import {
  buyFirstPackage,
  CONSOLE_WALK_TIMEOUT_MS,
  expectNoSeriousViolations,
  signInOperator,
  signInOwner,
} from './support/console.js';
import { type E2eServer, startServer } from './support/server.js';

const CUSTOMER = 'marisol.customers@example.com';
/** The server's copies of the node table and of the users it serves are a few seconds old at most. */
const NODE_WAIT = { timeout: 20_000, interval: 500 };

describe('the console’s customers screen', () => {
  let server: E2eServer;
  let browser: Browser;
  let node: AddedNode;
  /** The customer's id, as the command line shows it. */
  let id: number;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ SEED_DEMO_CATALOG: 'true', PAYMENT_SANDBOX: 'true' }),
      launchBrowser(),
    ]);
    await insertAccount(server, CUSTOMER);
    node = addNode(server, { name: 'Porto', mag: 1, host: 'porto.example.com' });
    id = admin<{ id: number }>(server, 'user', 'show', CUSTOMER).id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The ids of the users the node is told to serve at its next pull, as its agent asks (once the node is known). */
  async function nodeUsers(): Promise<number[]> {
    const response = await fetch(
      `${server.url}/api/v1/server/UniProxy/user?node_id=${node.id}&node_type=trojan&token=${node.token}`,
    );
    if (response.status !== 200) return [];
    return ((await response.json()) as { users: { id: number }[] }).users.map((user) => user.id);
  }

  /** A dialog once its opening transition is over (axe would measure half-faded colours). */
  async function settled(page: Page, name: string) {
    const dialog = page.getByRole('dialog', { name });
    await dialog.waitFor();
    await waitForTransitions(page);
    return dialog;
  }

  /** Confirms the change the dialog `name` asks about and waits until it is gone. */
  async function confirm(page: Page, name: string) {
    const dialog = await settled(page, name);
    await dialog.getByRole('button', { name }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  }

  /** Opens the customer from the list, found by part of their email. */
  async function openCustomer(page: Page) {
    await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).fill('marisol.cust');
    const link = page.getByRole('table', { name: 'Customers' }).getByRole('link', { name: CUSTOMER });
    await link.waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe('marisol.cust');
    await link.click();
    await page.getByRole('heading', { name: CUSTOMER, level: 1 }).waitFor();
  }

  it(
    'finds a customer by part of the email, bans them so the node drops them, unbans and adds days; audited',
    async () => {
      await (await buyFirstPackage(browser, server, CUSTOMER)).context().close();
      await expect.poll(nodeUsers, NODE_WAIT).toContain(id);
      const { page } = await signInOwner(browser, server);
      await openCustomer(page);
      // The search stays in the address: back from the customer's page shows it again.
      await page.goBack();
      await expect.poll(() => page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe('marisol.cust');
      await expectNoSeriousViolations(page);
      await page.goForward();
      await page.getByRole('heading', { name: CUSTOMER, level: 1 }).waitFor();
      await page
        .getByRole('progressbar', { name: /^Traffic used of / })
        .first()
        .waitFor({ state: 'attached' });
      await expect
        .poll(() => page.getByRole('img', { name: 'QR code of the subscription link' }).isVisible())
        .toBe(true);
      expect(await page.getByTestId('subscription-url').textContent()).toMatch(/^https?:\/\//);
      await expectNoSeriousViolations(page);

      await page.getByRole('button', { name: 'Ban', exact: true }).click();
      await settled(page, 'Ban');
      await expectNoSeriousViolations(page);
      await confirm(page, 'Ban');
      await page.getByRole('button', { name: 'Unban' }).waitFor();
      await expect.poll(nodeUsers, NODE_WAIT).not.toContain(id);

      await page.getByRole('button', { name: 'Unban' }).click();
      await confirm(page, 'Unban');
      await page.getByRole('button', { name: 'Ban', exact: true }).waitFor();
      await expect.poll(nodeUsers, NODE_WAIT).toContain(id);

      const running = page.getByRole('listitem').filter({ hasText: 'Running' });
      const periodBefore = await running.textContent();
      await page.getByRole('textbox', { name: 'Days' }).fill('7');
      await page.getByRole('button', { name: 'Add days' }).click();
      await confirm(page, 'Add days');
      await expect.poll(() => running.textContent()).not.toBe(periodBefore);

      await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Audit log' }).click();
      await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
      const ban = page
        .getByRole('table', { name: 'Audit log' })
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name: 'customer.ban', exact: true }) });
      await ban.first().waitFor();
      const banned = ban
        .first()
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: 'banned' }) });
      expect(await banned.getByRole('cell').allTextContents()).toEqual(['false', 'true']);
      expect(await ban.first().textContent()).toContain(`customer ${id}`);
      await page.context().close();
    },
    CONSOLE_WALK_TIMEOUT_MS,
  );

  it(
    'shows support no add-days button; works at 390 px and in each language',
    async () => {
      const { page } = await signInOperator(browser, server, 'support');
      await openCustomer(page);
      await page.getByRole('button', { name: 'Reset subscription' }).waitFor();
      expect(await page.getByRole('button', { name: 'Add days' }).count()).toBe(0);
      expect(await page.getByRole('textbox', { name: 'Days' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Add traffic' }).count()).toBe(0);

      await page.setViewportSize({ width: 390, height: 800 });
      await expectNoSeriousViolations(page);
      // No sideways scrolling of the page itself: wide tables scroll within their own box.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.setViewportSize({ width: 1280, height: 800 });

      for (const [language, account, packages] of [
        ['por', 'Conta', 'Pacotes'],
        ['zh', '账户', '套餐'],
        ['en', 'Account', 'Packages'],
      ] as const) {
        await page.getByRole('combobox', { name: /Language|Idioma|语言/ }).selectOption(language);
        await page.getByRole('heading', { name: account, level: 2 }).waitFor();
        await page.getByRole('heading', { name: packages, level: 2 }).waitFor();
        await expectNoSeriousViolations(page);
      }
      await page.context().close();
    },
    CONSOLE_WALK_TIMEOUT_MS,
  );
});
