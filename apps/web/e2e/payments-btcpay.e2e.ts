import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeBtcpay, startFakeBtcpay } from '../../server/src/test/fakes/btcpay.js';
import { insertAccount, logIn } from './support/accounts.js';
import { launchBrowser } from './support/browser.js';
import { type E2eServer, startServer } from './support/server.js';

/** The details screen polls every 10 seconds: a status change shows within one interval, plus some slack. */
const POLL_WAIT_MS = 15_000;

describe('a crypto purchase through BTCPay Server in a real browser', () => {
  let fake: FakeBtcpay;
  let server: E2eServer;
  let browser: Browser;
  let panelUrl: string;

  beforeAll(async () => {
    fake = await startFakeBtcpay();
    [server, browser] = await Promise.all([
      startServer({
        SEED_DEMO_CATALOG: 'true',
        BTCPAY_URL: fake.url,
        BTCPAY_STORE_ID: fake.storeId,
        BTCPAY_API_KEY: fake.apiKey,
        BTCPAY_WEBHOOK_SECRET: fake.webhookSecret,
        BTCPAY_CURRENCIES: 'USD',
      }),
      launchBrowser(),
    ]);
    // The server's PUBLIC_URL defaults to http://localhost:{PORT}: BTCPay sends the customer back there, so the
    // panel is used at that origin (the session and the checkout's origin check are per origin).
    panelUrl = server.url.replace('127.0.0.1', 'localhost');
    fake.webhookUrl = `${server.url}/payment/notify/btcpay`;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  const bannerStatus = (tab: Page) => tab.getByTestId('order-banner').getAttribute('data-status');

  async function customer(email: string): Promise<{ context: BrowserContext; tab: Page }> {
    await insertAccount(server, email);
    const context = await browser.newContext({ baseURL: panelUrl });
    const tab = await context.newPage();
    await logIn(tab, email);
    return { context, tab };
  }

  it('buys, pays on BTCPay, shows the payment in process while it confirms, then paid', async () => {
    const { context, tab } = await customer('satoshi@example.com');
    await tab.goto('/person/shop?lang=en');
    await tab.getByRole('link', { name: 'Order now: Traffic 100 GB' }).click();
    await tab.waitForURL('**/person/shopConfigure/*');
    await expect.poll(() => tab.getByTestId('summary-total').textContent()).toBe('4.99 USD');
    await expect.poll(() => tab.getByTestId('place-order').isEnabled()).toBe(true);
    const [checkout] = await Promise.all([context.waitForEvent('page'), tab.getByTestId('place-order').click()]);
    await tab.waitForURL(/\/person\/status\/\d{24}/);
    const orderNo = new URL(tab.url()).pathname.split('/').pop() ?? '';

    // The checkout offers BTCPay for dollars and sends the customer to its page.
    await checkout.getByTestId('checkout-method-btcpay').click();
    await checkout.waitForURL(`${fake.url}/i/*`);
    const invoice = fake.invoiceOf(orderNo);
    expect(await checkout.getByTestId('btcpay-amount').textContent()).toBe('4.99 USD');

    // Paid, waiting for confirmations: BTCPay sends the customer back to the order, which is in process.
    await checkout.getByTestId('btcpay-pay-unconfirmed').click();
    await checkout.waitForURL(`**/person/status/${orderNo}`);
    await expect.poll(() => bannerStatus(checkout)).toBe('doing');
    expect(await checkout.getByTestId('order-banner-text').textContent()).toBe('Payment in process');

    // The network confirms it: both tabs turn to paid by polling.
    await fake.confirm(invoice.id);
    expect(fake.deliveriesOf('InvoiceSettled', invoice.id)[0]?.status).toBe(200);
    await expect.poll(() => bannerStatus(checkout), { timeout: POLL_WAIT_MS, interval: 250 }).toBe('success');
    await expect.poll(() => bannerStatus(tab), { timeout: POLL_WAIT_MS, interval: 250 }).toBe('success');
    expect(await tab.getByTestId('order-banner-text').textContent()).toBe('The order is paid and activated');
    await context.close();
  });
});
