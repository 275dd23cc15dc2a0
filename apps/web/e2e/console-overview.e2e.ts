import { getNotice } from '@mutenet/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount } from './support/accounts.js';
import { addNode } from './support/admin.js';
import { launchBrowser } from './support/browser.js';
import { buyFirstPackage, CONSOLE_WALK_TIMEOUT_MS, expectNoSeriousViolations, signInOwner } from './support/console.js';
import { type E2eServer, startServer } from './support/server.js';

const CUSTOMER = 'overview-customer@example.com';
const GIB = 1024 ** 3;
/** The server's copy of the node table is at most 5 seconds old. */
const NODE_CACHE_WAIT = { timeout: 15_000, interval: 500 };

/** Switches the console's language and waits for the screen's heading in it. */
async function consoleLanguage(page: Page, language: 'en' | 'por' | 'zh', heading: string) {
  await page.getByRole('combobox', { name: /Language|Idioma|语言/ }).selectOption(language);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

describe('the console’s overview and notice', () => {
  let server: E2eServer;
  let browser: Browser;
  let customerTab: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ SEED_DEMO_CATALOG: 'true', PAYMENT_SANDBOX: 'true' }),
      launchBrowser(),
    ]);
    await insertAccount(server, CUSTOMER);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows an owner the figures after a customer paid and a node reported traffic, in each language', {
    timeout: CONSOLE_WALK_TIMEOUT_MS,
  }, async () => {
    customerTab = await buyFirstPackage(browser, server, CUSTOMER);
    // A node whose agent pulls its users (the paying customer among them) and reports their traffic.
    const node = addNode(server, { name: 'Lisbon', mag: 1, host: 'lisbon.example.com' });
    const agent = (path: string) =>
      `${server.url}/api/v1/server/UniProxy/${path}?node_id=${node.id}&node_type=trojan&token=${node.token}`;
    const users = async () => {
      const response = await fetch(agent('user'));
      return response.status === 200 ? ((await response.json()) as { users: { id: number }[] }).users : [];
    };
    await expect.poll(async () => (await users()).length, NODE_CACHE_WAIT).toBe(1);
    const [customer] = await users();
    const pushed = await fetch(agent('push'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ [customer!.id]: [GIB, 2 * GIB] }),
    });
    expect(pushed.status).toBe(200);

    const { page } = await signInOwner(browser, server);
    // Overview is an owner's first section.
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const usd = page.getByRole('table', { name: 'Revenue' }).getByRole('row', { name: /USD/ });
    const cells = await usd.getByRole('cell').allTextContents();
    expect(cells).toHaveLength(3);
    expect(cells[0]).toMatch(/^\$\d+\.\d{2}$/);
    expect(cells[0]).not.toBe('$0.00');
    expect(new Set(cells).size).toBe(1);
    const orders = page.getByRole('table', { name: 'Orders of the last 30 days by status' });
    expect(
      await orders
        .getByRole('row', { name: /Payment successful/ })
        .getByRole('cell')
        .textContent(),
    ).toBe('1');
    expect(await page.getByTestId('overview-running').textContent()).toBe('1');
    expect(await page.getByTestId('overview-nodes').textContent()).toMatch(/Online\s*1\s*Offline\s*0/);
    const byNode = page.getByRole('table', { name: 'Traffic by node (last 30 days)' });
    expect(
      await byNode
        .getByRole('row', { name: /Lisbon/ })
        .getByRole('cell')
        .allTextContents(),
    ).toEqual(['3 GB', '2 GB', '1 GB']);
    await page.getByText(/^3 GB in the last 30 days/).waitFor();
    await expectNoSeriousViolations(page);

    await page.setViewportSize({ width: 390, height: 800 });
    await expectNoSeriousViolations(page);
    // Nothing of the screen is wider than the phone: wide tables scroll inside their own box.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 800 });

    await consoleLanguage(page, 'por', 'Visão geral');
    expect(await page.getByRole('table', { name: 'Receita' }).getByRole('row', { name: /USD/ }).textContent()).toMatch(
      /\$\d+,\d{2}/,
    );
    await expectNoSeriousViolations(page);
    await consoleLanguage(page, 'zh', '概览');
    await page.getByRole('table', { name: '各节点流量（最近 30 天）' }).waitFor({ state: 'attached' });
    await expectNoSeriousViolations(page);
    await consoleLanguage(page, 'en', 'Overview');
    await page.context().close();
  });

  it('sets the notice in three languages, which the customer sees in each, and clears it', {
    timeout: CONSOLE_WALK_TIMEOUT_MS,
  }, async () => {
    const texts = {
      en: 'Maintenance on <b>Friday</b>',
      por: 'Manutenção na <b>sexta-feira</b>',
      zh: '<b>周五</b>进行维护',
    };
    const { page } = await signInOwner(browser, server);
    await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Notice' }).click();
    await page.getByRole('heading', { name: 'Notice', level: 1 }).waitFor();
    await page.getByText('No notice is shown now.').waitFor();
    await page.getByLabel(/^English/).fill(texts.en);
    await page.getByLabel(/^Portuguese/).fill(texts.por);
    await page.getByLabel(/^Chinese/).fill(texts.zh);
    const preview = page.getByRole('region', { name: 'Notice preview: Portuguese' });
    expect(await preview.locator('b').textContent()).toBe('sexta-feira');
    await page.getByRole('button', { name: 'Save notice' }).click();
    await page.getByRole('status').getByText('Notice saved.').waitFor();
    await expectNoSeriousViolations(page);

    await page.setViewportSize({ width: 390, height: 800 });
    await expectNoSeriousViolations(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await consoleLanguage(page, 'por', 'Aviso');
    await expectNoSeriousViolations(page);
    await consoleLanguage(page, 'zh', '公告');
    await expectNoSeriousViolations(page);
    await consoleLanguage(page, 'en', 'Notice');

    // The customer's dashboard shows it in each language (Chinese is reached through `?lang=zh`).
    for (const [language, words] of [
      ['en', 'Maintenance on Friday'],
      ['por', 'Manutenção na sexta-feira'],
      ['zh', '周五进行维护'],
    ] as const) {
      await customerTab.goto(`/person/pannel?lang=${language}`);
      await expect.poll(() => customerTab.getByTestId('notice-text').textContent()).toBe(words);
    }

    // Clearing asks first; then the dashboard shows no notice.
    await page.getByRole('button', { name: 'Clear notice' }).click();
    const dialog = page.getByRole('dialog', { name: 'Clear the notice?' });
    await dialog.waitFor();
    await expectNoSeriousViolations(page);
    await dialog.getByRole('button', { name: 'Clear', exact: true }).click();
    await page.getByRole('status').getByText('Notice cleared.').waitFor();
    const noticeAnswer = customerTab.waitForResponse((response) => new URL(response.url()).pathname === getNotice.path);
    await customerTab.reload();
    await noticeAnswer;
    await customerTab.getByTestId('language-select').waitFor();
    expect(await customerTab.getByTestId('notice-banner').count()).toBe(0);
    await page.context().close();
  });
});
