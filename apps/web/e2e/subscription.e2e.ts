import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount, logIn } from './support/accounts.js';
import { addNode, admin } from './support/admin.js';
import {
  expectAccessible,
  launchBrowser,
  linesOfText,
  openPage,
  PHONE,
  waitForTransitions,
} from './support/browser.js';
import { type E2eServer, startServer } from './support/server.js';

const EMAIL = 'subscriber@example.com';
const DATE_TIME = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/;
/** The server's copy of the node table is at most 5 seconds old. */
const NODE_CACHE_WAIT = { timeout: 15_000, interval: 500 };

describe('dashboard, knowledge base, node status and the subscription reset in a real browser', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ SEED_DEMO_CATALOG: 'true', PAYMENT_SANDBOX: 'true' }),
      launchBrowser(),
    ]);
    await insertAccount(server, EMAIL);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A signed-in tab of its own (axe needs a context per page; the clipboard is granted). */
  async function signedIn(options = {}): Promise<Page> {
    const tab = await openPage(browser, server.url, options);
    await logIn(tab, EMAIL);
    return tab;
  }

  /** Calls the customer API as the panel does: with the tab's token, in English. */
  async function api(tab: Page, method: string, path: string, form?: Record<string, string>) {
    const token = await tab.evaluate(() => localStorage.getItem('token'));
    return fetch(`${server.url}${path}`, {
      method,
      headers: {
        Authorization: token ?? '',
        'Accept-Language': 'en',
        ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
  }

  async function subscriptionLink(tab: Page): Promise<string> {
    const response = await api(tab, 'GET', '/mutenet/user/subscribe/url');
    expect(response.status).toBe(200);
    return (await response.text()).trim();
  }

  /** The feed at a link's path, on this server (the link names the server's public URL). */
  const fetchFeed = (link: string) => fetch(`${server.url}${new URL(link).pathname}`);

  /** A dialog or drawer once its opening transition is over (axe would measure half-faded colours). */
  async function settled(tab: Page, name: string) {
    const dialog = tab.getByRole('dialog', { name });
    await dialog.waitFor();
    await expect.poll(() => dialog.evaluate((node) => getComputedStyle(node).opacity)).toBe('1');
    await waitForTransitions(tab);
    return dialog;
  }

  const readClipboard = (tab: Page) => tab.evaluate(() => navigator.clipboard.readText());

  it.each([
    ['/person/pannel?lang=en', 'subscription-none', ['/mutenet/notice', '/mutenet/user/package/stat'], 'en'],
    ['/person/pannel/mobile/en', 'subscription-none', ['/mutenet/notice', '/mutenet/user/package/stat'], 'en'],
    ['/person/shop?lang=en', 'plan-card', ['/mutenet/packages'], 'en'],
    ['/person/shop/mobile/zh', 'plan-card', ['/mutenet/packages'], 'zh-Hans'],
  ])(
    'opens %s asking for its first data once each, every call in the address’s language from the first',
    async (path, shown, calls, language) => {
      // The tab showed Portuguese last.
      const tab = await signedIn();
      // The dashboard that signing in lands on asks for its data once its code has arrived: the calls are counted
      // from its screen on, so that none of them is taken for the address's.
      await tab.getByTestId('subscription-none').waitFor();
      const asked: string[] = [];
      const languages = new Set<string | undefined>();
      tab.on('request', (request) => {
        const { pathname } = new URL(request.url());
        if (!pathname.startsWith('/mutenet/') && pathname !== '/person/config.json') return;
        asked.push(pathname);
        languages.add(request.headers()['accept-language']);
      });
      await tab.goto(path);
      await tab.getByTestId(shown).first().waitFor();
      await tab.waitForLoadState('networkidle');
      expect(asked.sort()).toEqual([...calls, '/mutenet/login', '/person/config.json'].sort());
      expect([...languages]).toEqual([language]);
      await tab.context().close();
    },
  );

  it('shows the empty node list on a fresh server, leading to the shop', async () => {
    const tab = await signedIn();
    await tab.goto('/person/state?lang=en');
    await tab.getByTestId('nodes-empty').waitFor();
    expect(await tab.getByTestId('nodes-empty').textContent()).toContain('No nodes are available at the moment.');
    expect(await tab.getByRole('link', { name: 'Order a plan' }).getAttribute('href')).toBe('/person/shop');
    expect(await tab.getByTestId('nodes-note').textContent()).toContain('within the last five minutes');
    await expectAccessible(tab);
    await tab.context().close();
  });

  it('without a package: the shop tile, and a notice that stays closed for the session', async () => {
    admin(server, 'notice', 'set', '--text', '<b>Maintenance</b> on Sunday, 02:00 UTC');
    const tab = await signedIn();
    await tab.goto('/person/pannel?lang=en');
    const banner = tab.getByRole('region', { name: 'Notice' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Maintenance on Sunday, 02:00 UTC');
    // It scrolls, unless the customer asks for less motion (the phone pass below).
    expect(await tab.getByTestId('notice-text').evaluate((node) => getComputedStyle(node).animationName)).toBe(
      'notice-banner-scroll',
    );
    const none = tab.getByTestId('subscription-none');
    await none.waitFor();
    expect(await none.getAttribute('href')).toBe('/person/shop');
    expect(await tab.getByRole('progressbar').count()).toBe(0);
    await expectAccessible(tab);

    await tab.getByRole('button', { name: 'Close the notice' }).click();
    await expect.poll(() => banner.count()).toBe(0);
    await tab.reload();
    await tab.getByTestId('subscription-none').waitFor();
    // The notice was fetched again after the reload, and is still closed in this tab.
    await tab.waitForLoadState('networkidle');
    expect(await tab.getByRole('region', { name: 'Notice' }).count()).toBe(0);

    await none.click();
    await tab.waitForURL('**/person/shop');
    await tab.context().close();
  });

  it('with a package: name, expiry, days and the traffic bar; quick subscription copies the link and shows its QR code', async () => {
    const tab = await signedIn();
    // Bought as the panel and the checkout do: place the order, then approve it at the sandbox gateway.
    const created = (await (
      await api(tab, 'POST', '/mutenet/user/order/create', { pkgId: '1', currency: 'USD' })
    ).json()) as {
      data: { orderNo: string };
    };
    const approved = await api(tab, 'POST', `/payment/sandbox/${created.data.orderNo}/approve`);
    expect(((await approved.json()) as { data: { status: string } }).data.status).toBe('success');

    await tab.goto('/person/pannel?lang=en');
    await tab.getByTestId('package-name').waitFor();
    expect(await tab.getByTestId('package-name').textContent()).toBe('Traffic 100 GB');
    expect(await tab.getByTestId('package-expiry').textContent()).toMatch(DATE_TIME);
    expect(Number(await tab.getByTestId('package-days').textContent())).toBe(30);
    const bar = tab.getByRole('progressbar', { name: 'Traffic used' });
    expect(await bar.getAttribute('aria-valuenow')).toBe('0');
    expect(await tab.getByTestId('package-traffic').textContent()).toBe('0 B of 100 GB (0%)');
    // The notice is back: this is another tab, another session.
    await tab.getByRole('region', { name: 'Notice' }).waitFor();
    await expectAccessible(tab);

    const link = await subscriptionLink(tab);
    await tab.getByTestId('shortcut-quick').click();
    const dialog = await settled(tab, 'Quick subscription');
    expect(await dialog.getByRole('textbox', { name: 'Subscription link' }).inputValue()).toBe(link);
    const qr = dialog.getByRole('img', { name: 'QR code of your subscription link' });
    expect(await qr.isVisible()).toBe(true);
    expect((await qr.boundingBox())?.width).toBeGreaterThanOrEqual(150);
    await expectAccessible(tab);
    await dialog.getByRole('button', { name: 'Copy link' }).click();
    await tab.getByText('Link copied').first().waitFor();
    expect(await readClipboard(tab)).toBe(link);

    await dialog.getByRole('link', { name: 'How to use' }).click();
    await tab.waitForURL('**/person/document');
    await tab.context().close();
  });

  it('knowledge base: searches the guides and opens one with its download link', async () => {
    const config = (await (await fetch(`${server.url}/person/config.json`)).json()) as {
      downloads: Record<string, string>;
    };
    const tab = await signedIn();
    await tab.goto('/person/document?lang=en');
    const titles = () => tab.getByTestId('guide-title').allTextContents();
    await expect.poll(titles).toHaveLength(5);
    await tab.getByRole('searchbox', { name: 'Search guides' }).fill('windows');
    await expect.poll(titles).toEqual(['Clash for Windows']);
    await expectAccessible(tab);

    await tab.getByTestId('guide-2').click();
    const drawer = await settled(tab, 'Clash for Windows');
    const download = drawer.getByRole('link', { name: 'Download Clash for Windows' });
    expect(await download.getAttribute('href')).toBe(config.downloads.clashWindows);
    expect(await download.getAttribute('download')).not.toBeNull();
    // The steps' pictures are our own drawings, named for screen readers; no picture files.
    const pictures = drawer.getByTestId('guide-illustration');
    expect(await pictures.count()).toBe(3);
    expect(await pictures.first().getAttribute('aria-label')).toContain('Download button');
    expect(await drawer.locator('img').count()).toBe(0);
    await expectAccessible(tab);

    await drawer.getByRole('button', { name: 'Copy link' }).click();
    await tab.getByText('Link copied').first().waitFor();
    expect(await readClipboard(tab)).toBe(await subscriptionLink(tab));

    await tab.keyboard.press('Escape');
    await expect.poll(() => tab.getByRole('dialog').count()).toBe(0);
    await tab.getByRole('searchbox', { name: 'Search guides' }).fill('ios');
    await expect.poll(titles).toEqual(['Shadowrocket (iOS)', 'FoXray (iOS)']);
    // From the keyboard: Enter opens a guide, Escape closes it and gives the focus back.
    await tab.getByTestId('guide-3').focus();
    await tab.keyboard.press('Enter');
    const store = (await settled(tab, 'Shadowrocket (iOS)')).getByRole('link', { name: /Get Shadowrocket/ });
    expect(await store.getAttribute('href')).toBe(config.downloads.shadowrocket);
    expect(await store.getAttribute('target')).toBe('_blank');
    await tab.keyboard.press('Escape');
    await expect.poll(() => tab.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('guide-3');
    await tab.context().close();
  });

  it('node status: one node online after its agent called, one offline, with N× and tags', async () => {
    const tokyo = addNode(server, { name: 'Tokyo', mag: 1.5, labels: 'fast,stream', host: 't.example.com' });
    addNode(server, { name: 'Paris', mag: 1, host: 'p.example.com' });
    // Tokyo's agent pulls its configuration (once the server's node cache has the new node).
    const agentUrl = `${server.url}/api/v1/server/UniProxy/config?node_id=${tokyo.id}&node_type=trojan&token=${tokyo.token}`;
    await expect.poll(async () => (await fetch(agentUrl)).status, NODE_CACHE_WAIT).toBe(200);

    const tab = await signedIn();
    await tab.goto('/person/state?lang=en');
    await tab.getByTestId('nodes-table').waitFor();
    const names = () => tab.getByTestId('node-name').allTextContents();
    expect(await names()).toEqual(['Tokyo', 'Paris']);
    const row = (name: string) => tab.getByTestId('node-row').filter({ has: tab.getByRole('rowheader', { name }) });
    expect(await row('Tokyo').getByTestId('node-status').getAttribute('data-status')).toBe('online');
    expect(await row('Tokyo').getByTestId('node-status').textContent()).toBe('Online');
    expect(await row('Tokyo').getByTestId('node-mag').textContent()).toBe('1.5×');
    expect(await row('Tokyo').getByTestId('node-tag').allTextContents()).toEqual(['fast', 'stream']);
    // Readable tags: their text is not drawn in their background colour (axe leaves that case for review).
    const [text, background] = await row('Tokyo')
      .getByTestId('node-tag')
      .first()
      .evaluate((node) => [getComputedStyle(node).color, getComputedStyle(node).backgroundColor]);
    expect(text).not.toBe(background);
    expect(await row('Paris').getByTestId('node-status').textContent()).toBe('Offline');
    expect(await row('Paris').getByTestId('node-mag').textContent()).toBe('1×');
    expect(await row('Paris').getByTestId('node-tag').count()).toBe(0);
    await expectAccessible(tab);
    await tab.context().close();
  });

  it('resets the subscription in the user centre: the old link answers 404, the new one works', async () => {
    const tab = await signedIn();
    const oldLink = await subscriptionLink(tab);
    expect((await fetchFeed(oldLink)).status).toBe(200);

    await tab.goto('/person/person?lang=en');
    const section = tab.getByRole('region', { name: 'Reset subscription information' });
    await section.waitFor();
    await expectAccessible(tab);
    await section.getByRole('button', { name: 'Reset subscription information' }).click();
    const dialog = await settled(tab, 'Reset subscription information?');
    expect(await dialog.textContent()).toContain('stop working at once');
    await expectAccessible(tab);
    await tab.getByTestId('reset-dialog-confirm').click();
    await tab
      .getByText('Subscription reset: import the new link into your apps; the old one no longer works')
      .first()
      .waitFor();
    await expect.poll(() => tab.getByRole('dialog').count()).toBe(0);

    expect((await fetchFeed(oldLink)).status).toBe(404);
    const newLink = await subscriptionLink(tab);
    expect(newLink).not.toBe(oldLink);
    expect((await fetchFeed(newLink)).status).toBe(200);

    // The dashboard's quick subscription shows the new link.
    await tab.goto('/person/pannel?lang=en');
    await tab.getByTestId('shortcut-quick').click();
    const quick = await settled(tab, 'Quick subscription');
    await expect.poll(() => quick.getByRole('textbox', { name: 'Subscription link' }).inputValue()).toBe(newLink);
    await tab.context().close();
  });

  it('works at phone width in mobile mode: dashboard and node status without the shell', async () => {
    const tab = await signedIn({ ...PHONE, reducedMotion: 'reduce' as const });
    const bare = async () => {
      expect(await tab.getByTestId('user-menu').count()).toBe(0);
      expect(await tab.getByRole('navigation').count()).toBe(0);
    };
    await tab.goto('/person/pannel/mobile/en');
    await tab.getByTestId('package-name').waitFor();
    await tab.getByRole('region', { name: 'Notice' }).waitFor();
    // Less motion asked for: the notice stands still.
    expect(await tab.getByTestId('notice-text').evaluate((node) => getComputedStyle(node).animationName)).toBe('none');
    await bare();
    expect(await tab.getByTestId('shortcut-tutorial').getAttribute('href')).toBe('/person/document?from=mobile');
    // Nothing is wider than the phone.
    expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectAccessible(tab);

    await tab.goto('/person/state/mobile/en');
    await tab.getByTestId('nodes-table').waitFor();
    await bare();
    expect(await tab.getByRole('columnheader').allTextContents()).toEqual(['Name', 'Status', 'Rate']);
    expect(await tab.getByTestId('node-tag').count()).toBe(0);
    expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectAccessible(tab);

    // A long name beside a status in Chinese, whose words may break between any two characters: the status stays
    // on one line (the name's column once squeezed it to a character's width).
    addNode(server, { name: 'São Paulo Premium Long Name Node 02', mag: 0.8, host: 's.example.com' });
    await expect
      .poll(async () => {
        await tab.goto('/person/state/mobile/zh');
        await tab.getByTestId('nodes-table').waitFor();
        return tab.getByTestId('node-row').count();
      }, NODE_CACHE_WAIT)
      .toBe(3);
    // Its text, beside the dot.
    expect(await linesOfText(tab.getByTestId('node-status').locator('span:last-child'))).toEqual([1, 1, 1]);
    expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await tab.context().close();
  });
});
