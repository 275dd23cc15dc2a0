import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_STRIPE_KEY,
  FAKE_STRIPE_WEBHOOK_SECRET,
  type FakeStripe,
  startFakeStripe,
} from '../../server/src/test/fakes/stripe.js';
import { insertAccount, logIn } from './support/accounts.js';
import { launchBrowser } from './support/browser.js';
import { type E2eServer, startServer } from './support/server.js';

/** The details screen polls every 10 seconds: a status change shows within one interval, plus some slack. */
const POLL_WAIT_MS = 15_000;

/**
 * A purchase through Stripe's hosted page, played by the local fake Stripe (the server's SDK calls it, and it posts
 * signed webhooks back): by card, paid at once; and by Pix or OXXO, pending until Stripe confirms it later.
 */
describe('paying with Stripe in a real browser', () => {
  let fake: FakeStripe;
  let server: E2eServer;
  let browser: Browser;
  /**
   * The panel as the customer reaches it: at its PUBLIC_URL, which the server defaults to `http://localhost:<port>`
   * and gives Stripe as the address to come back to; the session lives on that origin.
   */
  let panel: string;

  beforeAll(async () => {
    fake = await startFakeStripe();
    [server, browser] = await Promise.all([
      startServer({
        SEED_DEMO_CATALOG: 'true',
        STRIPE_SECRET_KEY: FAKE_STRIPE_KEY,
        STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET,
        STRIPE_API_URL: fake.url,
      }),
      launchBrowser(),
    ]);
    fake.notifyTo(`${server.url}/payment/notify/stripe`);
    panel = server.url.replace('127.0.0.1', 'localhost');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  async function customer(email: string): Promise<{ context: BrowserContext; tab: Page }> {
    await insertAccount(server, email);
    const context = await browser.newContext({ baseURL: panel });
    const tab = await context.newPage();
    await logIn(tab, email);
    return { context, tab };
  }

  /** Orders Traffic 100 GB in a currency; resolves with the checkout's tab and the order's number. */
  async function order(context: BrowserContext, tab: Page, currency: 'USD' | 'BRL') {
    await tab.goto('/person/shop?lang=en');
    await tab.getByRole('link', { name: 'Order now: Traffic 100 GB' }).click();
    await tab.waitForURL('**/person/shopConfigure/*');
    if (currency === 'BRL') await tab.getByText('BRL · Real brasileiro').click();
    await expect.poll(() => tab.getByTestId('place-order').isEnabled()).toBe(true);
    const [checkout] = await Promise.all([context.waitForEvent('page'), tab.getByTestId('place-order').click()]);
    await tab.waitForURL(/\/person\/status\/\d{24}/);
    const orderNo = new URL(tab.url()).pathname.split('/').pop() ?? '';
    await checkout.getByTestId('checkout-order').waitFor();
    return { checkout, orderNo };
  }

  /** Picks Stripe in the checkout and lands on its page, for this order. */
  async function toStripe(checkout: Page, orderNo: string) {
    await checkout.getByTestId('checkout-method-stripe').click();
    await checkout.waitForURL(`${fake.url}/c/pay/**`);
    const session = fake.sessionFor(orderNo);
    expect(checkout.url()).toBe(session.url);
    return session;
  }

  const bannerStatus = (tab: Page) => tab.getByTestId('order-banner').getAttribute('data-status');

  it('pays by card on Stripe and comes back to the order, paid', async () => {
    const { context, tab } = await customer('card@example.com');
    const { checkout, orderNo } = await order(context, tab, 'USD');
    await toStripe(checkout, orderNo);
    expect(await checkout.locator('#amount').textContent()).toContain('499 USD');
    expect(await checkout.locator('#email').textContent()).toBe('card@example.com');

    await checkout.getByRole('button', { name: 'Pay by card' }).click();
    await checkout.waitForURL(`${panel}/person/status/${orderNo}`);
    await expect.poll(() => bannerStatus(checkout)).toBe('success');
    expect(await checkout.getByTestId('order-banner-text').textContent()).toBe('The order is paid and activated');
    // The panel's own tab learns it by polling.
    await expect.poll(() => bannerStatus(tab), { timeout: POLL_WAIT_MS, interval: 250 }).toBe('success');
    await context.close();
  });

  it('pays later by Pix: in process until Stripe confirms it, then paid', async () => {
    const { context, tab } = await customer('pix@example.com');
    const { checkout, orderNo } = await order(context, tab, 'BRL');
    const session = await toStripe(checkout, orderNo);

    await checkout.getByRole('button', { name: 'Pay later (Pix/OXXO)' }).click();
    await checkout.waitForURL(`${panel}/person/status/${orderNo}`);
    await expect.poll(() => bannerStatus(checkout)).toBe('doing');
    expect(await checkout.getByTestId('order-banner-text').textContent()).toBe('Payment in process');

    // The Pix transfer arrives: Stripe says so, and the open screen shows it at its next poll.
    expect((await fake.confirmLater(session.id))?.status).toBe(200);
    await expect.poll(() => bannerStatus(checkout), { timeout: POLL_WAIT_MS, interval: 250 }).toBe('success');
    await context.close();
  });
});
