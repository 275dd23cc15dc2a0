import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeBtcpay, startFakeBtcpay } from '../../server/src/test/fakes/btcpay.js';
import { type FakeMercadoPago, fakeAccount, startFakeMercadoPago } from '../../server/src/test/fakes/mercadopago.js';
import {
  FAKE_STRIPE_KEY,
  FAKE_STRIPE_WEBHOOK_SECRET,
  type FakeStripe,
  startFakeStripe,
} from '../../server/src/test/fakes/stripe.js';
import { DATABASES } from '../../server/src/test/test-app.js';
import { recordSecret } from '../../server/src/test/test-log.js';
import { insertAccount, logIn } from './support/accounts.js';
import { launchBrowser } from './support/browser.js';
import { type E2eServer, startServer } from './support/server.js';

/** The details screen polls every 10 seconds: a status change shows within one interval, plus some slack. */
const POLL_WAIT_MS = 15_000;

/**
 * A purchase through each real gateway, from the panel's checkout tab through the gateway's own page (played by a
 * local fake that the server's SDK or HTTP calls reach, and that posts signed notifications back) to the order's
 * details screen, for each family of methods: a card paid at once, Pix or OXXO paid later, crypto that confirms later.
 */
describe.each(DATABASES)('paying through the real gateways in a real browser on %s', (database) => {
  let stripe: FakeStripe;
  let mercadoPago: FakeMercadoPago;
  let btcpay: FakeBtcpay;
  let server: E2eServer;
  let browser: Browser;
  /**
   * The panel as the customer reaches it: at its PUBLIC_URL, which the server defaults to `http://localhost:<port>`
   * and gives the gateways as the address to come back to; the session lives on that origin.
   */
  let panel: string;

  beforeAll(async () => {
    [stripe, mercadoPago, btcpay] = await Promise.all([
      startFakeStripe(),
      startFakeMercadoPago({ accounts: [fakeAccount('BRL')] }),
      startFakeBtcpay(),
    ]);
    // The leak scan looks for them in the server's log and answers.
    for (const { accessToken, webhookSecret } of mercadoPago.accounts) {
      recordSecret('payment gateway secret', accessToken);
      recordSecret('payment gateway secret', webhookSecret);
    }
    [server, browser] = await Promise.all([
      startServer(
        {
          SEED_DEMO_CATALOG: 'true',
          STRIPE_SECRET_KEY: FAKE_STRIPE_KEY,
          STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET,
          STRIPE_API_URL: stripe.url,
          ...mercadoPago.env(),
          BTCPAY_URL: btcpay.url,
          BTCPAY_STORE_ID: btcpay.storeId,
          BTCPAY_API_KEY: btcpay.apiKey,
          BTCPAY_WEBHOOK_SECRET: btcpay.webhookSecret,
          BTCPAY_CURRENCIES: 'USD',
        },
        { database },
      ),
      launchBrowser(),
    ]);
    panel = server.url.replace('127.0.0.1', 'localhost');
    // The fakes post their notifications to the server's loopback address rather than to the name in PUBLIC_URL.
    stripe.notifyTo(`${server.url}/payment/notify/stripe`);
    mercadoPago.notifyTo(server.url);
    btcpay.webhookUrl = `${server.url}/payment/notify/btcpay`;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await Promise.all([stripe?.close(), mercadoPago?.close(), btcpay?.close()]);
  });

  /** A signed-in customer of their own, on the panel's public address (the return address is on it). */
  async function customer(email: string): Promise<{ context: BrowserContext; tab: Page }> {
    await insertAccount(server, email);
    const context = await browser.newContext({ baseURL: panel });
    const tab = await context.newPage();
    await logIn(tab, email);
    return { context, tab };
  }

  /**
   * Orders Traffic 100 GB in a currency and picks the gateway in the checkout's tab; resolves on the gateway's page
   * with the order's number and its total as the panel showed it.
   */
  async function buy(context: BrowserContext, tab: Page, currency: 'USD' | 'BRL', gateway: string, page: string) {
    await tab.goto('/person/shop?lang=en');
    await tab.getByRole('link', { name: 'Order now: Traffic 100 GB' }).click();
    await tab.waitForURL('**/person/shopConfigure/*');
    if (currency === 'BRL') await tab.getByText('BRL · Real brasileiro').click();
    await expect
      .poll(() => tab.getByTestId('summary-total').textContent())
      .toMatch(new RegExp(`^\\d+\\.\\d{2} ${currency}$`));
    const total = (await tab.getByTestId('summary-total').textContent())!.split(' ')[0]!;
    await expect.poll(() => tab.getByTestId('place-order').isEnabled()).toBe(true);
    const [checkout] = await Promise.all([context.waitForEvent('page'), tab.getByTestId('place-order').click()]);
    await tab.waitForURL(/\/person\/status\/\d{24}/);
    const orderNo = new URL(tab.url()).pathname.split('/').pop()!;
    await checkout.getByTestId('checkout-order').waitFor();
    await checkout.getByTestId(`checkout-method-${gateway}`).click();
    await checkout.waitForURL(`${page}/**`);
    return { checkout, orderNo, total };
  }

  const bannerStatus = (tab: Page) => tab.getByTestId('order-banner').getAttribute('data-status');

  /**
   * The details screen shows the order paid (an open one at its next poll; `reload` reads it now, where Stripe's tests
   * have shown the polling already), and the dashboard shows the package running.
   */
  async function expectPaidAndRunning(tab: Page, { reload = false } = {}) {
    if (reload) await tab.reload();
    await expect.poll(() => bannerStatus(tab), { timeout: POLL_WAIT_MS, interval: 250 }).toBe('success');
    expect(await tab.getByTestId('order-banner-text').textContent()).toBe('The order is paid and activated');
    await tab.goto('/person/dashboard?lang=en');
    await tab.getByTestId('package-name').waitFor();
    expect(await tab.getByTestId('package-name').textContent()).toBe('Traffic 100 GB');
  }

  /** Back from the gateway on the order's details screen, which shows the payment in process. */
  async function expectInProcess(checkout: Page, orderNo: string) {
    await checkout.waitForURL(`${panel}/person/status/${orderNo}**`);
    await expect.poll(() => bannerStatus(checkout)).toBe('doing');
    expect(await checkout.getByTestId('order-banner-text').textContent()).toBe('Payment in process');
  }

  it('Stripe: pays by card and comes back to the order, paid, with its package running', async () => {
    const email = 'stripe.card@example.com';
    const { context, tab } = await customer(email);
    const { checkout, orderNo, total } = await buy(context, tab, 'USD', 'stripe', `${stripe.url}/c/pay`);
    expect(checkout.url()).toBe(stripe.sessionFor(orderNo).url);
    expect(await checkout.locator('#amount').textContent()).toContain(`${Math.round(Number(total) * 100)} USD`);
    expect(await checkout.locator('#email').textContent()).toBe(email);

    await checkout.getByRole('button', { name: 'Pay by card' }).click();
    await checkout.waitForURL(`${panel}/person/status/${orderNo}`);
    await expect.poll(() => bannerStatus(checkout)).toBe('success');
    // The panel's own tab learns it by polling.
    await expectPaidAndRunning(tab);
    await context.close();
  });

  it('Stripe: pays later by Pix, in process until Stripe confirms it, then paid', async () => {
    const { context, tab } = await customer('stripe.pix@example.com');
    const { checkout, orderNo } = await buy(context, tab, 'BRL', 'stripe', `${stripe.url}/c/pay`);
    const session = stripe.sessionFor(orderNo);

    await checkout.getByRole('button', { name: 'Pay later (Pix/OXXO)' }).click();
    await expectInProcess(checkout, orderNo);
    // The Pix transfer arrives: Stripe says so, and the open screen shows it at its next poll.
    expect((await stripe.confirmLater(session.id))?.status).toBe(200);
    await expectPaidAndRunning(checkout);
    await context.close();
  });

  it('Mercado Pago: pays by card and comes back to the order, paid, with its package running', async () => {
    const email = 'mp.card@example.com';
    const { context, tab } = await customer(email);
    const { checkout, orderNo, total } = await buy(context, tab, 'BRL', 'mercadopago', mercadoPago.url);
    // Mercado Pago's page shows what the preference says: the price in reais and the customer's email.
    expect(await checkout.getByTestId('mp-amount').textContent()).toBe(`${Number(total)} BRL`);
    expect(await checkout.getByTestId('mp-payer').textContent()).toBe(email);

    await checkout.getByTestId('mp-card').click();
    await checkout.waitForURL(`${panel}/person/status/${orderNo}?*`);
    expect(new URL(checkout.url()).searchParams.get('collection_status')).toBe('approved');
    await expect.poll(() => bannerStatus(checkout)).toBe('success');
    await expectPaidAndRunning(checkout);
    await context.close();
  });

  it('Mercado Pago: pays by Pix, in process on return, then paid once the transfer is confirmed', async () => {
    const { context, tab } = await customer('mp.pix@example.com');
    const { checkout, orderNo } = await buy(context, tab, 'BRL', 'mercadopago', mercadoPago.url);

    await checkout.getByTestId('mp-pix').click();
    await expectInProcess(checkout, orderNo);
    expect(new URL(checkout.url()).searchParams.get('collection_status')).toBe('pending');
    const [payment] = mercadoPago.paymentsOf(orderNo);
    expect(payment).toMatchObject({ status: 'pending', payment_method_id: 'pix' });
    await mercadoPago.confirm(payment!.id);
    await expectPaidAndRunning(checkout, { reload: true });
    await context.close();
  });

  it('BTCPay: pays in crypto, in process while it confirms, then paid', async () => {
    const { context, tab } = await customer('btcpay.buyer@example.com');
    const { checkout, orderNo, total } = await buy(context, tab, 'USD', 'btcpay', `${btcpay.url}/i`);
    const invoice = btcpay.invoiceOf(orderNo);
    expect(await checkout.getByTestId('btcpay-amount').textContent()).toBe(`${total} USD`);

    // Paid, waiting for confirmations: BTCPay sends the customer back to the order, which is in process.
    await checkout.getByTestId('btcpay-pay-unconfirmed').click();
    await expectInProcess(checkout, orderNo);
    // The network confirms it.
    await btcpay.confirm(invoice.id);
    expect(btcpay.deliveriesOf('InvoiceSettled', invoice.id)[0]?.status).toBe(200);
    await expectPaidAndRunning(checkout, { reload: true });
    await context.close();
  });
});
