import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount, logIn } from './support/accounts.js';
import { admin } from './support/admin.js';
import { launchBrowser, PHONE } from './support/browser.js';
import { recordPolicyViolations } from './support/policy.js';
import { type E2eServer, startServer } from './support/server.js';

/** An HTTPS address the browser is served from through Playwright's routing, as a TLS-terminating proxy would. */
const HTTPS_ORIGIN = 'https://panel.example';
const CHECKOUT_COOKIE_SECONDS = 30 * 60;

describe('the pages under their strict policies, and the checkout cookie, in a real browser', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ SEED_DEMO_CATALOG: 'true' }), launchBrowser()]);
    admin(
      server,
      'notice',
      'set',
      '--text',
      '<p>Maintenance on <b>Sunday</b>, <a href="https://example.com/">details</a></p>',
    );
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Orders the first traffic plan from the shop; resolves with the checkout's tab, its order on screen. */
  async function orderAndOpenCheckout(context: BrowserContext, tab: Page): Promise<Page> {
    await tab.goto('/person/shop?lang=en');
    await tab.getByRole('link', { name: 'Order now: Traffic 100 GB' }).click();
    await tab.waitForURL('**/person/shopConfigure/*');
    await expect.poll(() => tab.getByTestId('place-order').isEnabled()).toBe(true);
    const [checkout] = await Promise.all([context.waitForEvent('page'), tab.getByTestId('place-order').click()]);
    await checkout.getByTestId('checkout-order').waitFor();
    return checkout;
  }

  /**
   * The checkout cookie the panel wrote as it opened the payment page (the spec's "payment-site cookie named token"),
   * as the browser stored it: the session's token, only for the checkout's path, same-site only, for 30 minutes. The
   * checkout page reads it from script (and sends it as the Authorization header), so it cannot be HttpOnly.
   */
  async function checkoutCookie(context: BrowserContext, tab: Page, writtenAfter: number) {
    const cookies = (await context.cookies()).filter((cookie) => cookie.name === 'token');
    expect(cookies).toHaveLength(1);
    const [cookie] = cookies;
    const token = await tab.evaluate(() => localStorage.getItem('token'));
    expect(cookie).toMatchObject({ value: token, path: '/shopDetails', sameSite: 'Strict', httpOnly: false });
    expect(cookie!.expires).toBeGreaterThan(writtenAfter + CHECKOUT_COOKIE_SECONDS - 60);
    expect(cookie!.expires).toBeLessThan(writtenAfter + CHECKOUT_COOKIE_SECONDS + 60);
    return cookie!;
  }

  it('runs every screen of the panel, and the checkout to a payment, without one policy violation', async () => {
    const email = 'walker@example.com';
    await insertAccount(server, email);
    const context = await browser.newContext({ baseURL: server.url });
    const violations = await recordPolicyViolations(context);
    const tab = await context.newPage();
    for (const open of ['/person/login', '/person/register', '/person/forgetPasswords', '/person/showDocx']) {
      await tab.goto(open);
      await tab.getByRole('heading').first().waitFor();
    }
    await logIn(tab, email);
    await tab.getByTestId('notice-banner').waitFor();
    for (const screen of ['/person/document', '/person/state', '/person/orders', '/person/person', '/person/invite']) {
      await tab.goto(screen);
      await tab.getByTestId('page-title').waitFor();
      await tab.waitForLoadState('networkidle');
    }
    const ordered = Date.now() / 1000;
    const checkout = await orderAndOpenCheckout(context, tab);
    // Over plain HTTP the cookie cannot be Secure (the browser would not keep it).
    expect((await checkoutCookie(context, tab, ordered)).secure).toBe(false);
    await checkout.getByTestId('checkout-method-sandbox').click();
    await checkout.getByTestId('sandbox-approve').click();
    await checkout.getByTestId('checkout-result-status').waitFor();
    await tab.goto('/person/pannel');
    await tab.getByTestId('package-name').waitFor();
    await tab.waitForLoadState('networkidle');
    expect(violations).toEqual([]);
    await context.close();
  });

  it("runs the phone layout, its drawer and the apps' web view mode without one policy violation", async () => {
    const email = 'phone@example.com';
    await insertAccount(server, email);
    const context = await browser.newContext({ baseURL: server.url, ...PHONE });
    const violations = await recordPolicyViolations(context);
    const tab = await context.newPage();
    await logIn(tab, email);
    await tab.getByTestId('menu-burger').click();
    await tab.getByTestId('menu-close').click();
    for (const screen of ['/person/pannel/mobile/en', '/person/shop/mobile/en', '/person/orders/mobile/en']) {
      await tab.goto(screen);
      await tab.waitForLoadState('networkidle');
    }
    expect(violations).toEqual([]);
    await context.close();
  });

  it('makes the checkout cookie Secure when the panel is served over HTTPS', async () => {
    const email = 'tls@example.com';
    await insertAccount(server, email);
    // Every request to the HTTPS address is answered by the test server, as by a proxy that terminates TLS: the
    // page's own origin is https, as under a real certificate.
    const context = await browser.newContext({ baseURL: HTTPS_ORIGIN });
    await context.route(`${HTTPS_ORIGIN}/**`, async (route) => {
      const url = route.request().url().replace(HTTPS_ORIGIN, server.url);
      await route.fulfill({ response: await route.fetch({ url, maxRedirects: 0 }) });
    });
    const tab = await context.newPage();
    await logIn(tab, email);
    const ordered = Date.now() / 1000;
    await orderAndOpenCheckout(context, tab);
    expect((await checkoutCookie(context, tab, ordered)).secure).toBe(true);
    // The pages still poll: their calls in flight are dropped with the context.
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();
  });
});
