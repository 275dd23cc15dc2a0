import { LANGUAGES, type Language, REQUEST_LANGUAGE } from '@mutenet/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount, logIn } from './support/accounts.js';
import { addNode, admin } from './support/admin.js';
import { launchBrowser, PHONE } from './support/browser.js';
import { type E2eServer, startServer } from './support/server.js';

/** The narrowest phone still in use (an iPhone SE of the first generation, small Android phones). */
const NARROW_PHONE = { ...PHONE, viewport: { width: 320, height: 640 } };
const EMAIL = 'narrow@example.com';
/** Names as an operator may write them, with nowhere to break a line: they must wrap, not widen the page. */
const LONG_PLAN = 'UnlimitedPremiumFamilyPlanWithoutSpaces2026';
const LONG_PACKAGE = 'UnlimitedTrafficForThreeHundredSixtyFiveDays';
const LONG_LINK = 'https://help.example.com/guides/importing-your-subscription-into-every-client-application';

describe('every screen on the narrowest phone, in every language', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ SEED_DEMO_CATALOG: 'true' }), launchBrowser()]);
    await insertAccount(server, EMAIL);
    admin(server, 'notice', 'set', '--text', 'Maintenance on Sunday, 02:00 UTC: the nodes restart one by one.');
    addNode(server, {
      name: 'São Paulo Premium Long Name Node 02',
      mag: 1.5,
      labels: 'BR,IPLC',
      host: 'br.example.com',
    });
    addNode(server, { name: 'HK-IPLC-Netflix-DisneyPlus-Premium-01', mag: 2, host: 'hk.example.com' });
    const plan = admin<{ id: number }>(
      server,
      ...['plan', 'add', '--group', 'traffic', '--name', LONG_PLAN, '--content', `<p>Guide: ${LONG_LINK}</p>`],
    );
    const pkg = ['--plan', String(plan.id), '--label', LONG_PACKAGE, '--days', '30', '--traffic-gb', '10'];
    admin(server, 'package', 'add', ...pkg, '--price', 'USD:5/4');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The page's width beyond the screen's, in CSS pixels: what a customer would have to scroll sideways to see. */
  async function overflowOf(tab: Page, path: string, language: Language): Promise<number> {
    await tab.goto(path);
    await tab.getByRole('heading', { level: 1 }).first().waitFor();
    await expect.poll(() => tab.evaluate(() => document.documentElement.lang)).toBe(REQUEST_LANGUAGE[language]);
    await tab.waitForLoadState('networkidle');
    return tab.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  }

  it('needs no sideways scrolling on any screen, signed out or in, in the shell or in mobile mode, nor in the checkout', async () => {
    const context = await browser.newContext({ baseURL: server.url, ...NARROW_PHONE });
    const tab = await context.newPage();
    const overflowing: string[] = [];
    const check = async (path: string, language: Language) => {
      const overflow = await overflowOf(tab, path, language);
      if (overflow > 0) overflowing.push(`${path}: ${overflow} px`);
    };

    for (const language of LANGUAGES) {
      for (const screen of ['login', 'register', 'forgetPasswords', 'showDocx']) {
        await check(`/person/${screen}?lang=${language}`, language);
      }
    }

    await logIn(tab, EMAIL);
    // A running package (a paid order, of the plan with the long names) and a waiting order, so that the dashboard,
    // the list and the details show them.
    const [paid, waiting] = await tab.evaluate(async (longPlan) => {
      const headers = { Authorization: localStorage.getItem('token') ?? '' };
      const plans = await (await fetch('/mutenet/packages', { headers })).json();
      const orderNos: string[] = [];
      const named = plans.data.traffic.find((plan: { pdName: string }) => plan.pdName === longPlan);
      for (const plan of [named, plans.data.durational[0]]) {
        const created = await fetch('/mutenet/user/order/create', {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ pkgId: String(plan.packages[0].pkgId), currency: 'USD', force: '1' }),
        });
        orderNos.push((await created.json()).data.orderNo);
      }
      return orderNos;
    }, LONG_PLAN);
    admin(server, 'order', 'mark-paid', paid!);
    // The hosted checkout reads the session from the cookie the panel writes as it opens the payment page.
    const token = await tab.evaluate(() => localStorage.getItem('token') ?? '');
    await context.addCookies([{ name: 'token', value: token, domain: '127.0.0.1', path: '/shopDetails' }]);
    await tab.goto('/person/shop?lang=en');
    const configure = await tab
      .getByTestId('plan-card')
      .filter({ hasText: LONG_PLAN })
      .getByRole('link')
      .getAttribute('href');

    for (const language of LANGUAGES) {
      for (const screen of ['pannel', 'document', 'shop', 'state', 'orders', 'person', 'invite']) {
        await check(`/person/${screen}?lang=${language}`, language);
      }
      await check(`${configure}?lang=${language}`, language);
      for (const order of [paid, waiting]) await check(`/person/status/${order}?lang=${language}`, language);
      for (const order of [paid, waiting]) {
        await check(`/shopDetails/${REQUEST_LANGUAGE[language]}/${order}`, language);
        await tab.getByTestId('checkout-order').waitFor(); // the order itself, not the way to the login screen
      }
      for (const screen of ['pannel', 'shop', 'state', 'orders']) {
        await check(`/person/${screen}/mobile/${language}`, language);
      }
    }
    expect(overflowing).toEqual([]);
    await context.close();
  });
});
