import { LANGUAGES, type Language, REQUEST_LANGUAGE } from '@mutenet/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount, logIn, PASSWORD } from './support/accounts.js';
import { addNode, admin } from './support/admin.js';
import { controlsWithoutVisibleFocus, launchBrowser, PHONE } from './support/browser.js';
import { CAPTCHA_TEST_CODE, type E2eServer, startServer } from './support/server.js';

/** The narrowest phone still in use (an iPhone SE of the first generation, small Android phones). */
const NARROW_PHONE = { ...PHONE, viewport: { width: 320, height: 640 } };
const EMAIL = 'narrow@example.com';
/** Names as an operator may write them, with nowhere to break a line: they must wrap, not widen the page. */
const LONG_PLAN = 'UnlimitedPremiumFamilyPlanWithoutSpaces2026';
const LONG_PACKAGE = 'UnlimitedTrafficForThreeHundredSixtyFiveDays';
const LONG_LINK = 'https://help.example.com/guides/importing-your-subscription-into-every-client-application';
const SIGNED_OUT_SCREENS = ['login', 'register', 'forgetPasswords', 'showDocx'];
const SIGNED_IN_SCREENS = ['pannel', 'document', 'shop', 'state', 'orders', 'person', 'invite'];

describe('every screen on the narrowest phone in every language, and by the keyboard', () => {
  let server: E2eServer;
  let browser: Browser;
  /** Two orders of the customer's: a paid one, of the plan with the long names, whose package runs, and a waiting one. */
  let paid: string;
  let waiting: string;

  /** The customer's two orders, placed over HTTP as the panel places them. */
  async function placeOrders(): Promise<[string, string]> {
    const api = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, init);
    const { imgId } = (await (await api('/mutenet/verify/code/img')).json()).data;
    const login = await api('/mutenet/login', {
      method: 'POST',
      body: new URLSearchParams({ email: EMAIL, password: PASSWORD, imgCode: CAPTCHA_TEST_CODE, imgId }),
    });
    const headers = { Authorization: login.headers.get('authorization') ?? '' };
    const plans = (await (await api('/mutenet/packages', { headers })).json()).data;
    const named = plans.traffic.find((plan: { pdName: string }) => plan.pdName === LONG_PLAN);
    const order = async (plan: { packages: { pkgId: number }[] }): Promise<string> => {
      const created = await api('/mutenet/user/order/create', {
        method: 'POST',
        headers,
        body: new URLSearchParams({ pkgId: String(plan.packages[0]!.pkgId), currency: 'USD', force: '1' }),
      });
      return (await created.json()).data.orderNo;
    };
    return [await order(named), await order(plans.durational[0])];
  }

  /** The hosted checkout reads the session from the cookie the panel writes as it opens the payment page. */
  async function keepCheckoutCookie(tab: Page) {
    const token = await tab.evaluate(() => localStorage.getItem('token') ?? '');
    await tab.context().addCookies([{ name: 'token', value: token, domain: '127.0.0.1', path: '/shopDetails' }]);
  }

  /** The configure screen's path for the plan with the long names, as its card in the shop links to it. */
  async function configurePath(tab: Page): Promise<string> {
    await tab.goto('/person/shop?lang=en');
    const link = tab.getByTestId('plan-card').filter({ hasText: LONG_PLAN }).getByRole('link');
    return (await link.getAttribute('href')) ?? '';
  }

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
    [paid, waiting] = await placeOrders();
    admin(server, 'order', 'mark-paid', paid);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Opens a screen and waits until it is whole: its heading, its language, and its calls answered. */
  async function openScreen(tab: Page, path: string, language: Language) {
    await tab.goto(path);
    await tab.getByRole('heading', { level: 1 }).first().waitFor();
    await expect.poll(() => tab.evaluate(() => document.documentElement.lang)).toBe(REQUEST_LANGUAGE[language]);
    await tab.waitForLoadState('networkidle');
  }

  // A language a test, each in a context of its own: the three together outran one test's time on a busy machine.
  it.each(LANGUAGES)(
    'needs no sideways scrolling on any screen, signed out or in, in the shell or in mobile mode, nor in the checkout (%s)',
    async (language) => {
      const context = await browser.newContext({ baseURL: server.url, ...NARROW_PHONE });
      const tab = await context.newPage();
      const overflowing: string[] = [];
      const check = async (path: string) => {
        await openScreen(tab, path, language);
        // The page's width beyond the screen's: what a customer would have to scroll sideways to see.
        const overflow = await tab.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        if (overflow > 0) overflowing.push(`${path}: ${overflow} px`);
      };

      for (const screen of SIGNED_OUT_SCREENS) await check(`/person/${screen}?lang=${language}`);

      await logIn(tab, EMAIL);
      await keepCheckoutCookie(tab);
      const configure = await configurePath(tab);

      for (const screen of SIGNED_IN_SCREENS) await check(`/person/${screen}?lang=${language}`);
      await check(`${configure}?lang=${language}`);
      for (const order of [paid, waiting]) await check(`/person/status/${order}?lang=${language}`);
      for (const order of [paid, waiting]) {
        await check(`/shopDetails/${REQUEST_LANGUAGE[language]}/${order}`);
        await tab.getByTestId('checkout-order').waitFor(); // the order itself, not the way to the login screen
      }
      for (const screen of ['pannel', 'shop', 'state', 'orders']) await check(`/person/${screen}/mobile/${language}`);
      expect(overflowing).toEqual([]);
      await context.close();
    },
  );

  /** The controls Tab reaches on each path that do not show their focus, each named with its path. */
  async function walkEach(tab: Page, paths: string[]): Promise<string[]> {
    const unseen: string[] = [];
    for (const path of paths) {
      await openScreen(tab, path, 'en');
      unseen.push(...(await controlsWithoutVisibleFocus(tab)).map((control) => `${path}: ${control}`));
    }
    return unseen;
  }

  it('shows the focus on every control that Tab reaches, on every screen signed out', async () => {
    const context = await browser.newContext({ baseURL: server.url });
    const tab = await context.newPage();
    expect(
      await walkEach(
        tab,
        SIGNED_OUT_SCREENS.map((screen) => `/person/${screen}?lang=en`),
      ),
    ).toEqual([]);
    await context.close();
  });

  it('shows the focus on every control that Tab reaches, on every screen signed in and in the checkout', async () => {
    const context = await browser.newContext({ baseURL: server.url });
    const tab = await context.newPage();
    await logIn(tab, EMAIL);
    const configure = await configurePath(tab);
    await keepCheckoutCookie(tab);
    const paths = [
      ...SIGNED_IN_SCREENS.map((screen) => `/person/${screen}?lang=en`),
      `${configure}?lang=en`,
      ...[paid, waiting].map((order) => `/person/status/${order}?lang=en`),
      `/shopDetails/${REQUEST_LANGUAGE.en}/${waiting}`,
    ];
    expect(await walkEach(tab, paths)).toEqual([]);
    await context.close();
  });
});
