import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount, logIn, PASSWORD } from './support/accounts.js';
import { expectAccessible, focusedHeading, launchBrowser, linesOfText, PHONE, tabTo } from './support/browser.js';
import { CAPTCHA_TEST_CODE, type E2eServer, startServer } from './support/server.js';

/** The details screen polls every 10 seconds: a status change shows within one interval, plus some slack. */
const POLL_WAIT_MS = 15_000;

describe('shop, orders and the hosted checkout in a real browser', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ SEED_DEMO_CATALOG: 'true' }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const accounts = new Set<string>();

  /** A signed-in customer in a context of their own (axe needs one); the account is made on first use. */
  async function customer(email: string, options = {}): Promise<{ context: BrowserContext; tab: Page }> {
    if (!accounts.has(email)) await insertAccount(server, email);
    accounts.add(email);
    const context = await browser.newContext({ baseURL: server.url, ...options });
    const tab = await context.newPage();
    await logIn(tab, email);
    return { context, tab };
  }

  /** Presses a button that places an order or opens its payment page; resolves with the checkout's tab. */
  async function opensCheckout(context: BrowserContext, press: () => Promise<void>): Promise<Page> {
    const [checkout] = await Promise.all([context.waitForEvent('page'), press()]);
    await checkout.waitForLoadState();
    expect(new URL(checkout.url()).pathname).toMatch(/^\/shopDetails\/en\/\d{24}$/);
    await checkout.getByTestId('checkout-order').waitFor();
    return checkout;
  }

  async function orderNoOf(tab: Page): Promise<string> {
    await tab.waitForURL(/\/person\/status\/\d{24}/);
    return new URL(tab.url()).pathname.split('/').pop() ?? '';
  }

  async function configure(tab: Page, plan: string) {
    await tab.goto('/person/shop?lang=en');
    if (plan === 'Unlimited time plan') await tab.getByTestId('plan-group').getByText('By cycle').click();
    await tab.getByRole('link', { name: `Order now: ${plan}` }).click();
    await tab.waitForURL('**/person/shopConfigure/*');
    await expect.poll(() => tab.getByTestId('place-order').isEnabled()).toBe(true);
  }

  /** Pays in the checkout's tab with a sandbox action and checks the status it reports. */
  async function payWithSandbox(checkout: Page, action: 'approve' | 'decline' | 'pending', label: string) {
    await checkout.getByTestId('checkout-method-sandbox').click();
    await checkout.getByTestId(`sandbox-${action}`).click();
    await expect.poll(() => checkout.getByTestId('checkout-result-status').textContent()).toBe(label);
  }

  /** A dialog once its opening transition is over (axe would measure the contrast of a half-faded button). */
  async function openDialog(tab: Page, name: string) {
    const dialog = tab.getByRole('dialog', { name });
    await dialog.waitFor();
    await expect.poll(() => dialog.evaluate((node) => getComputedStyle(node).opacity)).toBe('1');
    return dialog;
  }

  const bannerStatus = (tab: Page) => tab.getByTestId('order-banner').getAttribute('data-status');

  it('browses both groups, configures, pays in the checkout tab, and the details turn to success by polling', async () => {
    const { context, tab } = await customer('buyer@example.com');
    await tab.goto('/person/shop?lang=en');
    await expect.poll(() => tab.getByTestId('plan-card').count()).toBe(2);
    expect(await tab.getByTestId('plan-name').allTextContents()).toEqual(['Traffic 100 GB', 'Traffic 500 GB']);
    expect(await tab.getByTestId('plan-price-real').first().textContent()).toContain('$4.99');
    expect(await tab.locator('[data-testid="plan-price-old"] >> nth=0').evaluate((node) => node.tagName)).toBe('S');
    await expectAccessible(tab);
    await tab.getByTestId('plan-group').getByText('By cycle').click();
    await expect.poll(() => tab.getByTestId('plan-name').allTextContents()).toEqual(['Unlimited time plan']);
    await tab.getByTestId('plan-group').getByText('By traffic').click();
    await tab.getByRole('link', { name: 'Order now: Traffic 100 GB' }).click();

    // Configure: the first currency and cycle, then reais and the 90-day cycle.
    await tab.waitForURL('**/person/shopConfigure/*');
    await expect.poll(() => tab.getByTestId('summary-total').textContent()).toBe('4.99 USD');
    await tab.getByText('BRL · Real brasileiro').click();
    await tab.getByTestId('cycle-2').click();
    await expect.poll(() => tab.getByTestId('summary-total').textContent()).toBe('34.90 BRL');
    expect(await tab.getByTestId('summary-product').textContent()).toBe('Traffic 100 GB × 100 GB / 90 days');
    await tab.getByTestId('discount-code').fill('SAVE50');
    await tab.getByTestId('verify-discount').click();
    await tab.getByText('Invalid discount code').first().waitFor();
    await expectAccessible(tab);

    const checkout = await opensCheckout(context, () => tab.getByTestId('place-order').click());
    const orderNo = await orderNoOf(tab);
    expect(checkout.url()).toContain(orderNo);
    expect(await checkout.getByTestId('checkout-amount').textContent()).toBe('R$34.90');
    expect(await checkout.getByTestId('checkout-status').textContent()).toBe('To be paid');
    await expectAccessible(checkout);
    await checkout.getByTestId('checkout-method-sandbox').click();
    await checkout.getByTestId('sandbox-approve').waitFor();
    await expectAccessible(checkout);
    await checkout.getByTestId('sandbox-approve').click();
    await expect
      .poll(() => checkout.getByTestId('checkout-result-status').textContent())
      .toBe('Payment successful (subscription opened)');
    expect(await checkout.getByTestId('checkout-back').getAttribute('href')).toBe(`/person/status/${orderNo}`);
    await expectAccessible(checkout);

    // The panel's tab has been polling all along.
    await expect.poll(() => bannerStatus(tab), { timeout: POLL_WAIT_MS, interval: 250 }).toBe('success');
    expect(await tab.getByTestId('order-banner-text').textContent()).toBe('The order is paid and activated');
    await tab.getByTestId('view-tutorial').waitFor();
    await expectAccessible(tab);
    await tab.getByTestId('view-tutorial').click();
    await tab.waitForURL('**/person/document');
    await context.close();
  });

  it('queues a second package through its confirmation (code 4), declines it, and leaves a third pending', async () => {
    const { context, tab } = await customer('buyer@example.com');

    // With a live package, the next order is queued after it once confirmed (code 4); this payment is declined.
    await configure(tab, 'Unlimited time plan');
    await tab.getByTestId('place-order').click();
    await openDialog(tab, 'You already have an active package');
    await expectAccessible(tab);
    const declined = await opensCheckout(context, () => tab.getByTestId('active-dialog-confirm').click());
    const declinedNo = await orderNoOf(tab);
    await payWithSandbox(declined, 'decline', 'Payment failed');
    await tab.reload();
    await expect.poll(() => bannerStatus(tab)).toBe('failed');

    // A third one is left pending at the gateway.
    await configure(tab, 'Traffic 500 GB');
    await tab.getByTestId('place-order').click();
    const pending = await opensCheckout(context, () => tab.getByTestId('active-dialog-confirm').click());
    await payWithSandbox(pending, 'pending', 'Processing');
    await tab.reload();
    await expect.poll(() => bannerStatus(tab)).toBe('doing');
    expect(await tab.getByTestId('order-banner-text').textContent()).toBe('Payment in process');

    // The list shows all three, newest first, with what each allows.
    await tab.goto('/person/orders?lang=en');
    await tab.getByTestId('orders-table').waitFor();
    expect(
      await tab.getByTestId('order-status').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-status'))),
    ).toEqual(['doing', 'failed', 'success']);
    const paidRow = tab.locator('[data-testid^="order-row-"]', { has: tab.locator('[data-status="success"]') });
    expect(await paidRow.getByTestId('order-details').isEnabled()).toBe(true);
    expect(await paidRow.getByTestId('order-cancel').isEnabled()).toBe(false);
    expect(await tab.getByTestId(`order-row-${declinedNo}`).getByTestId('order-details').isEnabled()).toBe(false);
    await context.close();
  });

  it('leads a second order of an unpaid plan to that order (code 3), and cancels it from the list', async () => {
    const { context, tab } = await customer('twice@example.com');
    await configure(tab, 'Traffic 500 GB');
    const checkout = await opensCheckout(context, () => tab.getByTestId('place-order').click());
    const orderNo = await orderNoOf(tab);
    await checkout.close();
    expect(await bannerStatus(tab)).toBe('waiting');
    await tab.getByTestId('pay-now').waitFor();

    await configure(tab, 'Traffic 500 GB');
    await tab.getByTestId('place-order').click();
    await openDialog(tab, 'Unfinished order');
    await expectAccessible(tab);
    await tab.getByTestId('unfinished-dialog-confirm').click();
    await tab.waitForURL(`**/person/status/${orderNo}`);
    await expect.poll(() => bannerStatus(tab)).toBe('waiting');

    // Cancel it from the list, through its warning.
    await tab.goto('/person/orders?lang=en');
    const row = tab.getByTestId(`order-row-${orderNo}`);
    await row.waitFor();
    expect(await row.getByTestId('order-status').textContent()).toBe('To be paid');
    expect(await row.getByTestId('order-details').isEnabled()).toBe(true);
    await expectAccessible(tab);
    await row.getByTestId('order-cancel').click();
    const confirm = await openDialog(tab, 'Cancel this order?');
    await confirm.getByText('cancelling it may cause the payment to fail').waitFor();
    await expectAccessible(tab);
    await tab.getByTestId('cancel-dialog-confirm').click();
    await tab.getByText('Cancel success').first().waitFor();
    await expect.poll(() => row.getByTestId('order-status').textContent()).toBe('Cancelled by user');
    expect(await row.getByTestId('order-cancel').isEnabled()).toBe(false);
    expect(await row.getByTestId('order-details').isEnabled()).toBe(false);

    // In Chinese at the narrowest width that still shows the table, its status stays one word on one line.
    await tab.setViewportSize({ width: 768, height: 1000 });
    await tab.goto('/person/orders?lang=zh');
    await row.waitFor();
    expect(await row.getByTestId('order-status').textContent()).toBe('用户已取消');
    expect(await linesOfText(row.getByTestId('order-status').locator('span:last-child'))).toEqual([1]);
    await context.close();
  });

  it('signs in, orders a plan and cancels it with the keyboard alone, each control showing its focus', async () => {
    const email = 'keys@example.com';
    await insertAccount(server, email);
    const context = await browser.newContext({ baseURL: server.url });
    const tab = await context.newPage();
    await tab.goto('/person/login?lang=en');
    await tab.getByTestId('captcha-picture').waitFor();
    await tabTo(tab, tab.getByTestId('email'));
    await tab.keyboard.type(email);
    await tabTo(tab, tab.getByTestId('password'));
    await tab.keyboard.type(PASSWORD);
    await tabTo(tab, tab.getByTestId('imgCode'));
    await tab.keyboard.type(CAPTCHA_TEST_CODE);
    await tab.keyboard.press('Enter');
    await tab.waitForURL('**/person/pannel');

    await tabTo(tab, tab.getByRole('navigation').getByRole('link', { name: 'Purchase subscription' }));
    await tab.keyboard.press('Enter');
    await tab.waitForURL('**/person/shop');
    // The focus has moved to the new screen's heading, where a screen reader reads it out.
    await expect.poll(() => focusedHeading(tab)).toBe('Purchase subscription');
    await tabTo(tab, tab.getByRole('link', { name: 'Order now: Traffic 100 GB' }));
    await tab.keyboard.press('Enter');
    await tab.waitForURL('**/person/shopConfigure/*');
    await expect.poll(() => tab.getByTestId('place-order').isEnabled()).toBe(true);
    const placeOrder = tab.getByTestId('place-order');
    const checkout = await opensCheckout(context, async () => {
      await tabTo(tab, placeOrder);
      await tab.keyboard.press('Enter');
    });
    const orderNo = await orderNoOf(tab);
    await checkout.close();

    await tabTo(tab, tab.getByRole('navigation').getByRole('link', { name: 'My order' }));
    await tab.keyboard.press('Enter');
    await tab.waitForURL('**/person/orders');
    const row = tab.getByTestId(`order-row-${orderNo}`);
    await tabTo(tab, row.getByTestId('order-cancel'));
    await tab.keyboard.press('Enter');
    const confirm = await openDialog(tab, 'Cancel this order?');
    // The dialog holds the focus: Tab goes round its own controls, never to the page behind it.
    for (let presses = 0; presses < 6; presses += 1) {
      expect(await confirm.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
      await tab.keyboard.press('Tab');
    }
    await tabTo(tab, confirm.getByTestId('cancel-dialog-confirm'));
    await tab.keyboard.press('Enter');
    await tab.getByText('Cancel success').first().waitFor();
    await expect.poll(() => row.getByTestId('order-status').textContent()).toBe('Cancelled by user');
    await context.close();
  });

  it('orders at phone width in mobile mode, without the shell', async () => {
    const { context, tab } = await customer('phone-buyer@example.com', PHONE);
    const bare = async () => {
      expect(await tab.getByTestId('user-menu').count()).toBe(0);
      expect(await tab.getByRole('navigation').count()).toBe(0);
    };
    await tab.goto('/person/shop/mobile/en');
    await tab.getByTestId('plan-card').first().waitFor();
    await bare();
    await expectAccessible(tab);
    await tab.getByRole('link', { name: 'Order now: Traffic 100 GB' }).click();
    await tab.waitForURL('**/person/shopConfigure/*?from=mobile');
    await expect.poll(() => tab.getByTestId('place-order').isEnabled()).toBe(true);
    await bare();
    await expectAccessible(tab);

    const checkout = await opensCheckout(context, () => tab.getByTestId('place-order').click());
    await tab.waitForURL(/\/person\/status\/\d{24}\?from=mobile$/);
    const orderNo = new URL(tab.url()).pathname.split('/').pop() ?? '';
    await expectAccessible(checkout);
    await payWithSandbox(checkout, 'approve', 'Payment successful (subscription opened)');
    await checkout.close();
    await tab.reload();
    await expect.poll(() => bannerStatus(tab)).toBe('success');
    await bare();
    expect(await tab.getByTestId('view-tutorial').count()).toBe(0);
    await expectAccessible(tab);

    await tab.goto('/person/orders/mobile/en');
    await tab.getByTestId(`order-card-${orderNo}`).waitFor();
    expect(await tab.getByTestId('orders-table').count()).toBe(0);
    await bare();
    await expectAccessible(tab);
    await tab.getByTestId(`order-card-${orderNo}`).getByRole('button').click();
    await tab.waitForURL(`**/person/status/${orderNo}?from=mobile`);
    await context.close();
  });

  it('sends a checkout without a session to the login screen', async () => {
    const context = await browser.newContext({ baseURL: server.url });
    const tab = await context.newPage();
    await tab.goto('/shopDetails/pt-BR/202611211525000000000001');
    await tab.getByTestId('checkout-no-session').waitFor();
    expect(await tab.getByRole('heading', { level: 1 }).textContent()).toBe('Pagamento');
    expect(await tab.evaluate(() => document.documentElement.lang)).toBe('pt-BR');
    expect(await tab.getByRole('link', { name: 'Entrar' }).getAttribute('href')).toBe('/person/login');
    await expectAccessible(tab);
    await context.close();
  });
});
