import { getPackageStat } from '@mutenet/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount, logIn } from './support/accounts.js';
import { launchBrowser } from './support/browser.js';
import { CONSOLE_WALK_TIMEOUT_MS, expectNoSeriousViolations, signInOperator, signInOwner } from './support/console.js';
import { type E2eServer, startServer } from './support/server.js';

const BUYER = 'console.buyer@example.com';
const PAID = 'Payment successful (subscription opened)';

/**
 * The Orders screen as operators use it: a customer pays an order with the sandbox gateway in the panel; a manager
 * sees it with no refund; an owner finds it by the customer's email, reads its events and refunds it behind the
 * confirmation; the customer's package has ended, and the audit log shows the refund with its before and after.
 */
describe('orders in the operator console', () => {
  let server: E2eServer;
  let browser: Browser;
  let customer: BrowserContext;
  let panel: Page;
  let orderNo: string;

  beforeAll(async () => {
    server = await startServer({ SEED_DEMO_CATALOG: 'true' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await customer?.close();
    await browser?.close();
    await server?.stop();
  });

  it('starts with a customer who pays an order of Traffic 100 GB with the sandbox gateway', async () => {
    await insertAccount(server, BUYER);
    customer = await browser.newContext({ baseURL: server.url });
    panel = await customer.newPage();
    await logIn(panel, BUYER);

    await panel.goto('/person/shop?lang=en');
    await panel.getByRole('link', { name: 'Order now: Traffic 100 GB' }).click();
    await panel.waitForURL('**/person/shopConfigure/*');
    await expect.poll(() => panel.getByTestId('place-order').isEnabled()).toBe(true);
    const [checkout] = await Promise.all([customer.waitForEvent('page'), panel.getByTestId('place-order').click()]);
    await panel.waitForURL(/\/person\/status\/\d{24}/);
    orderNo = new URL(panel.url()).pathname.split('/').pop() ?? '';
    await checkout.getByTestId('checkout-order').waitFor();
    await checkout.getByTestId('checkout-method-sandbox').click();
    await checkout.getByTestId('sandbox-approve').click();
    await expect.poll(() => checkout.getByTestId('checkout-result-status').textContent()).toBe(PAID);
    await checkout.close();
    await panel.goto('/person/dashboard?lang=en');
    expect(await panel.getByTestId('package-name').textContent()).toBe('Traffic 100 GB');
  });

  it('shows a manager the paid order with no refund or chargeback', { timeout: CONSOLE_WALK_TIMEOUT_MS }, async () => {
    const { page } = await signInOperator(browser, server, 'manager');
    await page.goto(`/admin/orders/${orderNo}`);
    await page.getByRole('heading', { name: `Order ${orderNo}`, level: 1 }).waitFor();
    const fields = page.getByRole('table', { name: 'Order details' });
    await fields.getByText(PAID).waitFor();
    expect(await page.getByRole('button', { name: /Refund|Record chargeback|Mark paid/ }).count()).toBe(0);
    await expectNoSeriousViolations(page);
    await page.context().close();
  });

  it(
    'lets an owner find the order by email, read its events and refund it; the package ends; the audit log shows it',
    async () => {
      const { page } = await signInOwner(browser, server);
      const nav = page.getByRole('navigation', { name: 'Console sections' });
      await nav.getByRole('link', { name: 'Orders' }).click();
      await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
      const list = page.getByRole('table', { name: 'Orders' });
      await list.getByRole('link', { name: orderNo }).waitFor();
      await expectNoSeriousViolations(page);

      // Filtered by the customer's email: the filters are in the address, and a reload keeps them.
      const filters = page.getByRole('form', { name: 'Filters' });
      await filters.getByLabel('Customer').fill(BUYER);
      await filters.getByLabel('Status').selectOption('success');
      await filters.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL(/\/admin\/orders\?status=success&customer=/);
      await page.getByRole('status').getByText('Orders shown: 1').waitFor();
      await page.reload();
      await list.getByRole('link', { name: orderNo }).waitFor();
      expect(await filters.getByLabel('Customer').inputValue()).toBe(BUYER);
      const row = list.getByRole('row').filter({ hasText: orderNo });
      expect(await row.textContent()).toContain('$4.99');
      expect(await row.textContent()).toContain(PAID);
      await page.goBack();
      await expect.poll(() => filters.getByLabel('Customer').inputValue()).toBe('');
      await page.goForward();
      await expect.poll(() => filters.getByLabel('Customer').inputValue()).toBe(BUYER);

      // The order's page: its fields and the sandbox's payment event.
      await list.getByRole('link', { name: orderNo }).click();
      await page.getByRole('heading', { name: `Order ${orderNo}`, level: 1 }).waitFor();
      const events = page.getByRole('table', { name: 'Payment events' });
      const paidEvent = events.getByRole('row').filter({ hasText: 'sandbox' });
      await paidEvent.waitFor();
      expect(await paidEvent.getByRole('cell').allTextContents()).toEqual(
        expect.arrayContaining(['sandbox', 'Paid', 'Yes']),
      );
      await expectNoSeriousViolations(page);

      // The refund, behind its confirmation naming the order and its amount.
      await page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Refund' }).click();
      const dialog = page.getByRole('dialog', { name: `Refund order ${orderNo}` });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain(`Refund order ${orderNo} of $4.99?`);
      await expectNoSeriousViolations(page);
      await dialog.getByRole('button', { name: 'Refund' }).click();
      await page.getByRole('status').getByText(`Order ${orderNo} is refunded and its package has ended.`).waitFor();
      const fields = page.getByRole('table', { name: 'Order details' });
      await fields.getByText('Refunded').waitFor();
      await events
        .getByRole('row')
        .filter({ hasText: 'manual' })
        .getByRole('cell', { name: 'Refunded', exact: true })
        .waitFor();
      expect(await page.getByRole('button', { name: 'Refund' }).count()).toBe(0);

      // Back to the list as it was left.
      await page.getByRole('link', { name: 'Back to orders' }).click();
      await page.waitForURL(/\/admin\/orders\?status=success&customer=/);
      await page.getByText('No orders match.').waitFor();

      // The customer's package has ended: the dashboard offers the shop again, and the API lists no package.
      await panel.goto('/person/dashboard?lang=en');
      await panel.getByTestId('subscription-none').waitFor();
      const packages = await panel.evaluate(async (path) => {
        const answer = await fetch(path, { headers: { Authorization: localStorage.getItem('token') ?? '' } });
        return ((await answer.json()) as { data: unknown[] }).data;
      }, getPackageStat.path);
      expect(packages).toEqual([]);

      // The audit log: the refund, by this owner, with the status before and after.
      await nav.getByRole('link', { name: 'Audit log' }).click();
      const log = page.getByRole('table', { name: 'Audit log' });
      const entry = log.getByRole('row').filter({ hasText: 'order.refund' });
      await entry.waitFor();
      expect(await entry.textContent()).toContain(orderNo);
      expect(
        await entry
          .getByRole('row', { name: /status/ })
          .getByRole('cell')
          .allTextContents(),
      ).toEqual(['success', 'refunded']);

      // At phone width, the order's page and the list are usable (their tables scroll inside themselves).
      await page.setViewportSize({ width: 390, height: 800 });
      await page.goto(`/admin/orders/${orderNo}`);
      await page.getByRole('heading', { name: `Order ${orderNo}`, level: 1 }).waitFor();
      await expectNoSeriousViolations(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.goto('/admin/orders');
      await page.getByRole('table', { name: 'Orders' }).waitFor();
      await expectNoSeriousViolations(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.setViewportSize({ width: 1280, height: 800 });

      // In each language, the list and the order's page.
      for (const [language, listTitle, orderTitle, status] of [
        ['por', 'Pedidos', `Pedido ${orderNo}`, 'Reembolsado'],
        ['zh', '订单', `订单 ${orderNo}`, '已退款'],
        ['en', 'Orders', `Order ${orderNo}`, 'Refunded'],
      ] as const) {
        await page.goto('/admin/orders');
        await page.getByRole('combobox', { name: /Language|Idioma|语言/ }).selectOption(language);
        await page.getByRole('heading', { name: listTitle, level: 1 }).waitFor();
        await page.getByRole('cell', { name: status }).first().waitFor();
        await expectNoSeriousViolations(page);
        await page.getByRole('link', { name: orderNo }).click();
        await page.getByRole('heading', { name: orderTitle, level: 1 }).waitFor();
        await expectNoSeriousViolations(page);
      }
      await page.context().close();
    },
    CONSOLE_WALK_TIMEOUT_MS,
  );
});
