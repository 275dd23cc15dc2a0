import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordSecret } from '../../server/src/test/test-log.js';
import { insertAccount } from './support/accounts.js';
import { launchBrowser, waitForTransitions } from './support/browser.js';
import { buyFirstPackage, CONSOLE_WALK_TIMEOUT_MS, expectNoSeriousViolations, signInOwner } from './support/console.js';
import { type E2eServer, startServer } from './support/server.js';

const CUSTOMER = 'nodes.customer@example.com';
const NODE = 'Lisbon';
/** The server's copy of the node table is at most 5 seconds old. */
const NODE_CACHE_WAIT = { timeout: 15_000, interval: 500 };

describe('the console’s nodes screen', () => {
  let server: E2eServer;
  let browser: Browser;

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

  /** A dialog once its opening transition is over (axe would measure half-faded colours). */
  async function settled(page: Page, name: string) {
    const dialog = page.getByRole('dialog', { name });
    await dialog.waitFor();
    await waitForTransitions(page);
    return dialog;
  }

  it(
    'adds a node that customers see and its agent is served with the token shown once; rotation refuses the old one',
    async () => {
      const { page } = await signInOwner(browser, server);
      const nav = page.getByRole('navigation', { name: 'Console sections' });
      await nav.getByRole('link', { name: 'Nodes' }).click();
      await page.getByRole('heading', { name: 'Nodes', level: 1 }).waitFor();
      await expectNoSeriousViolations(page);

      await page.getByRole('button', { name: 'Add node' }).click();
      const form = (await settled(page, 'New node')).getByRole('form', { name: 'New node' });
      // VLESS shows its transport and TLS, and with TLS its flow; Shadowsocks only its cipher.
      await form.getByLabel('TLS').selectOption('tls');
      await form.getByLabel('Flow').waitFor();
      await form.getByLabel('Protocol').selectOption('shadowsocks');
      await form.getByLabel('Cipher').waitFor();
      expect(await form.getByLabel('Flow').count()).toBe(0);
      expect(await form.getByLabel('Transport').count()).toBe(0);
      await expectNoSeriousViolations(page);
      await form.getByLabel(/^Name \(English\)/).fill(NODE);
      await form.getByLabel(/^Name \(Portuguese\)/).fill('Lisboa');
      await form.getByLabel(/^Name \(Chinese\)/).fill('里斯本');
      await form.getByLabel(/^Host/).fill('lis.example.com');
      await form.getByLabel(/^Port/).fill('8388');
      await form.getByLabel('Cipher').selectOption('aes-256-gcm');
      await form.getByRole('button', { name: 'Add node' }).click();

      const shown = await settled(page, `Token of ${NODE}`);
      expect(await shown.textContent()).toContain('shown only this once');
      const token = ((await shown.getByTestId('node-token').textContent()) ?? '').trim();
      recordSecret('node token', token);
      expect(token.length).toBeGreaterThan(20);
      await shown.getByRole('button', { name: 'Copy Token' }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
      const v2bx = JSON.parse((await shown.getByTestId('v2bx-entry').textContent()) ?? '{}') as {
        ApiKey: string;
        NodeID: number;
        NodeType: string;
      };
      expect(v2bx.ApiKey).toBe(token);
      expect(await shown.getByTestId('xrayr-entry').textContent()).toContain(token);
      await expectNoSeriousViolations(page);
      await shown.getByRole('button', { name: 'Close' }).last().click();
      const row = page.getByRole('row', { name: new RegExp(NODE) });
      await row.waitFor();
      expect(await page.getByText(token).count()).toBe(0);

      // The node API takes the token shown; the node is online in the list after its agent calls.
      const agent = (secret: string) =>
        `${server.url}/api/v1/server/UniProxy/config?node_id=${v2bx.NodeID}&node_type=shadowsocks&token=${secret}`;
      await expect.poll(async () => (await fetch(agent(token))).status, NODE_CACHE_WAIT).toBe(200);
      await page.reload();
      await expect.poll(() => row.textContent(), NODE_CACHE_WAIT).toContain('Online');

      // A customer with a running package sees it on the status page and in the feed.
      const tab = await buyFirstPackage(browser, server, CUSTOMER);
      await expect
        .poll(async () => {
          await tab.goto('/person/state?lang=en');
          await tab.getByTestId('nodes-table').waitFor();
          return tab.getByTestId('node-name').allTextContents();
        }, NODE_CACHE_WAIT)
        .toContain(NODE);
      const session = (await tab.evaluate(() => localStorage.getItem('token'))) ?? '';
      const linkResponse = await fetch(`${server.url}/mutenet/user/subscribe/url`, {
        headers: { Authorization: session, 'Accept-Language': 'en' },
      });
      const link = (await linkResponse.text()).trim();
      const feed = await fetch(`${server.url}${new URL(link).pathname}`, { headers: { 'user-agent': 'clash.meta' } });
      expect(feed.status).toBe(200);
      // The feed names the node in the account's language.
      expect(await feed.text()).toMatch(/Lisbon|Lisboa|里斯本/);
      await tab.context().close();

      // Rotation, behind a confirmation: the new token shown once, the old one refused at once.
      await row.getByRole('button', { name: 'New token' }).click();
      const confirm = await settled(page, `New token for ${NODE}`);
      await expectNoSeriousViolations(page);
      await confirm.getByRole('button', { name: 'New token' }).click();
      const rotated = await settled(page, `Token of ${NODE}`);
      const fresh = ((await rotated.getByTestId('node-token').textContent()) ?? '').trim();
      recordSecret('node token', fresh);
      expect(fresh).not.toBe(token);
      await rotated.getByRole('button', { name: 'Close' }).last().click();
      expect((await fetch(agent(token))).status).toBe(403);
      expect((await fetch(agent(fresh))).status).toBe(200);

      // The audit log shows the addition.
      await nav.getByRole('link', { name: 'Audit log' }).click();
      const log = page.getByRole('table', { name: 'Audit log' });
      await log.getByText('node.add').first().waitFor();
      expect(await log.textContent()).toContain('node.rotateToken');

      // At phone width, and in each language.
      await nav.getByRole('link', { name: 'Nodes' }).click();
      await page.setViewportSize({ width: 390, height: 800 });
      await page.getByRole('heading', { name: 'Nodes', level: 1 }).waitFor();
      await row.waitFor();
      await expectNoSeriousViolations(page);
      await page.setViewportSize({ width: 1280, height: 800 });
      for (const [language, heading, add] of [
        ['por', 'Nós', 'Adicionar nó'],
        ['zh', '节点', '添加节点'],
        ['en', 'Nodes', 'Add node'],
      ] as const) {
        await page.getByRole('combobox', { name: /Language|Idioma|语言/ }).selectOption(language);
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        await page.getByRole('button', { name: add }).waitFor();
        await expectNoSeriousViolations(page);
      }
      await page.context().close();
    },
    CONSOLE_WALK_TIMEOUT_MS,
  );
});
