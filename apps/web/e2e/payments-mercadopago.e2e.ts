import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMercadoPago, fakeAccount, startFakeMercadoPago } from '../../server/src/test/fakes/mercadopago.js';
import { recordSecret } from '../../server/src/test/test-log.js';
import { insertAccount, logIn } from './support/accounts.js';
import { launchBrowser } from './support/browser.js';
import { type E2eServer, startServer } from './support/server.js';

/** The details screen polls every 10 seconds: a status change shows within one interval, plus some slack. */
const POLL_WAIT_MS = 15_000;

/**
 * A purchase in reais through Mercado Pago: the panel's checkout tab, the (fake) Checkout Pro page, and back to the
 * order's details. The server runs with a Mercado Pago account for BRL pointed at the fake.
 */
describe('Mercado Pago from the checkout in a real browser', () => {
  let fake: FakeMercadoPago;
  let server: E2eServer;
  let browser: Browser;
  /** The panel's public address (PUBLIC_URL, by default localhost and the port): where Mercado Pago sends customers back. */
  let panel: string;

  beforeAll(async () => {
    fake = await startFakeMercadoPago({ accounts: [fakeAccount('BRL')] });
    // The leak scan looks for them in the server's log and answers.
    for (const { accessToken, webhookSecret } of fake.accounts) {
      recordSecret('payment gateway secret', accessToken);
      recordSecret('payment gateway secret', webhookSecret);
    }
    [server, browser] = await Promise.all([startServer({ SEED_DEMO_CATALOG: 'true', ...fake.env() }), launchBrowser()]);
    panel = server.url.replace('127.0.0.1', 'localhost');
    // The fake posts its notifications to the server's loopback address rather than to the name in PUBLIC_URL.
    fake.notifyTo(server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  /** A signed-in customer of their own, on the panel's public address (the return address is on it). */
  async function customer(email: string): Promise<{ context: BrowserContext; tab: Page }> {
    await insertAccount(server, email);
    const context = await browser.newContext({ baseURL: panel });
    const tab = await context.newPage();
    await logIn(tab, email);
    return { context, tab };
  }

  /** Orders Traffic 100 GB in reais and chooses Mercado Pago in the checkout's tab: resolves on Mercado Pago's page. */
  async function buyInReais(context: BrowserContext, tab: Page, email: string) {
    await tab.goto('/person/shop?lang=en');
    await tab.getByRole('link', { name: 'Order now: Traffic 100 GB' }).click();
    await tab.waitForURL('**/person/shopConfigure/*');
    await tab.getByText('BRL · Real brasileiro').click();
    await expect.poll(() => tab.getByTestId('summary-total').textContent()).toMatch(/^\d+\.\d{2} BRL$/);
    const total = Number((await tab.getByTestId('summary-total').textContent())!.split(' ')[0]);
    await expect.poll(() => tab.getByTestId('place-order').isEnabled()).toBe(true);
    const [checkout] = await Promise.all([context.waitForEvent('page'), tab.getByTestId('place-order').click()]);
    await tab.waitForURL(/\/person\/status\/\d{24}/);
    const orderNo = new URL(tab.url()).pathname.split('/').pop()!;
    await checkout.getByTestId('checkout-order').waitFor();
    await checkout.getByTestId('checkout-method-mercadopago').click();
    await checkout.waitForURL(`${fake.url}/**`);
    // Mercado Pago's page shows what the preference says: the price in reais and the customer's email.
    expect(await checkout.getByTestId('mp-amount').textContent()).toBe(`${total} BRL`);
    expect(await checkout.getByTestId('mp-payer').textContent()).toBe(email);
    expect(fake.preferenceFor(orderNo)!.items[0]).toMatchObject({ unit_price: total, currency_id: 'BRL', quantity: 1 });
    return { checkout, orderNo };
  }

  const bannerStatus = (tab: Page) => tab.getByTestId('order-banner').getAttribute('data-status');

  it('pays by card on Mercado Pago’s page and comes back to the order, paid and activated', async () => {
    const email = 'card.buyer@example.com';
    const { context, tab } = await customer(email);
    const { checkout, orderNo } = await buyInReais(context, tab, email);

    await checkout.getByTestId('mp-card').click();
    await checkout.waitForURL(`${panel}/person/status/${orderNo}?*`);
    expect(new URL(checkout.url()).searchParams.get('collection_status')).toBe('approved');
    await expect.poll(() => bannerStatus(checkout)).toBe('success');
    expect(await checkout.getByTestId('order-banner-text').textContent()).toBe('The order is paid and activated');
    // The panel's own tab learns it by polling.
    await expect.poll(() => bannerStatus(tab), { timeout: POLL_WAIT_MS, interval: 250 }).toBe('success');
    await context.close();
  });

  it('pays by Pix: in process on return, then paid once the transfer is confirmed', async () => {
    const email = 'pix.buyer@example.com';
    const { context, tab } = await customer(email);
    const { checkout, orderNo } = await buyInReais(context, tab, email);

    await checkout.getByTestId('mp-pix').click();
    await checkout.waitForURL(`${panel}/person/status/${orderNo}?*`);
    expect(new URL(checkout.url()).searchParams.get('collection_status')).toBe('pending');
    await expect.poll(() => bannerStatus(checkout)).toBe('doing');
    expect(await checkout.getByTestId('order-banner-text').textContent()).toBe('Payment in process');

    const [payment] = fake.paymentsOf(orderNo);
    expect(payment).toMatchObject({ status: 'pending', payment_method_id: 'pix' });
    await fake.confirm(payment!.id);
    await expect.poll(() => bannerStatus(checkout), { timeout: POLL_WAIT_MS, interval: 250 }).toBe('success');
    expect(await checkout.getByTestId('order-banner-text').textContent()).toBe('The order is paid and activated');
    await context.close();
  });
});
