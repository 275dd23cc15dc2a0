import type { Language } from '@mutenet/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount, logIn } from './support/accounts.js';
import { launchBrowser, openPage } from './support/browser.js';
import { CONSOLE_WALK_TIMEOUT_MS, expectNoSeriousViolations, signInOwner } from './support/console.js';
import { type E2eServer, startServer } from './support/server.js';

const CUSTOMER = 'shopper@catalog.example.com';

/** The plan as the owner writes it, in the shop's three languages. */
const PLAN = {
  en: { tab: 'English', name: 'Family 100', content: '<p>Up to <b>five</b> devices</p><script>alert(1)</script>' },
  'pt-BR': { tab: 'Português (Brasil)', name: 'Família 100', content: '<p>Até <b>cinco</b> aparelhos</p>' },
  'zh-Hans': { tab: '简体中文', name: '家庭 100', content: '<p>最多<b>五台</b>设备</p>' },
} as const;

/** What a customer sees in each language: the name, the bold word of the content, and the price in its currency. */
const SHOP = [
  ['en', PLAN.en.name, 'five', '$4.99'],
  ['por', PLAN['pt-BR'].name, 'cinco', 'R$24,90'],
  ['zh', PLAN['zh-Hans'].name, '五台', '$4.99'],
] as const satisfies readonly (readonly [Language, string, string, string])[];

/** A dialog once its opening transition is over (axe would measure a half-faded button). */
async function openDialog(page: Page, name: string) {
  const dialog = page.getByRole('dialog', { name });
  await dialog.waitFor();
  await expect.poll(() => dialog.evaluate((node) => getComputedStyle(node).opacity)).toBe('1');
  return dialog;
}

describe('the catalogue in the console', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    await insertAccount(server, CUSTOMER);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  // A long walk: two browsers, three languages, axe on each screen.
  it('an owner creates a plan that customers see in the shop in each language, then hides it', {
    timeout: CONSOLE_WALK_TIMEOUT_MS,
  }, async () => {
    const { page } = await signInOwner(browser, server);
    const nav = page.getByRole('navigation', { name: 'Console sections' });
    await nav.getByRole('link', { name: 'Catalogue' }).click();
    await page.getByRole('heading', { name: 'Catalogue', level: 1 }).waitFor();
    await expectNoSeriousViolations(page);

    // The currencies the package is priced in.
    const currencyForm = page.getByRole('form', { name: 'New currency' });
    for (const [code, name] of [
      ['USD', 'US dollar'],
      ['BRL', 'Real'],
    ] as const) {
      await currencyForm.getByLabel('Code').fill(code);
      await currencyForm.getByLabel('Name').fill(name);
      await currencyForm.getByRole('button', { name: 'Add currency' }).click();
      await page.getByRole('table', { name: 'Currencies' }).getByRole('cell', { name: code, exact: true }).waitFor();
    }

    // The plan in three languages, its content previewed as the shop will show it (the script is gone).
    await page.getByRole('button', { name: 'New plan' }).click();
    const editor = await openDialog(page, 'New plan');
    for (const [language, { tab, name, content }] of Object.entries(PLAN)) {
      await editor.getByRole('tab', { name: tab }).click();
      await editor.getByLabel(`Name (${tab})`).fill(name);
      await editor.getByLabel(`Content (HTML) (${tab})`).fill(content);
      const preview = editor.getByTestId(`preview-${language}`);
      await expect.poll(() => preview.locator('b').textContent()).toBe(SHOP.find(([, n]) => n === name)?.[2]);
      expect(await preview.innerHTML()).not.toContain('script');
    }
    await expectNoSeriousViolations(page);
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached' });
    const actions = page.getByRole('group', { name: `Actions for ${PLAN.en.name}` });

    // A package priced in two currencies, typed in major units.
    await actions.getByRole('button', { name: 'Add package' }).click();
    const packageForm = await openDialog(page, 'Add package');
    await packageForm.getByLabel('Label').fill('100 GB');
    await packageForm.getByLabel('Days').fill('30');
    await packageForm.getByLabel('Traffic (GB)').fill('100');
    await packageForm.getByLabel('Price in USD', { exact: true }).fill('4.99');
    await packageForm.getByLabel('Old price in USD (optional)').fill('6.00');
    await packageForm.getByLabel('Price in BRL', { exact: true }).fill('24.90');
    await expectNoSeriousViolations(page);
    await packageForm.getByRole('button', { name: 'Save' }).click();
    await packageForm.waitFor({ state: 'detached' });
    const packages = page.getByRole('table', { name: `Packages of ${PLAN.en.name}` });
    await packages.getByText('BRL 24.90').waitFor();
    expect(await packages.textContent()).toContain('USD 4.99');

    // The customer's shop, in each language.
    const shop = await openPage(browser, server.url);
    await logIn(shop, CUSTOMER);
    for (const [language, name, bold, price] of SHOP) {
      await shop.goto(`/person/shop?lang=${language}`);
      const card = shop.getByTestId('plan-card');
      await expect.poll(() => card.getByTestId('plan-name').textContent()).toBe(name);
      expect(await card.getByTestId('plan-content').locator('b').textContent()).toBe(bold);
      expect(await card.getByTestId('plan-price-real').textContent()).toContain(price);
    }

    // Hidden, it leaves the shop.
    await actions.getByRole('button', { name: 'Hide' }).click();
    await page.getByText('Hidden', { exact: true }).waitFor();
    await shop.goto('/person/shop?lang=en');
    await shop.getByTestId('plans-empty').waitFor();
    expect(await shop.getByTestId('plan-card').count()).toBe(0);
    await shop.context().close();

    // The audit log holds the plan as it was created.
    await nav.getByRole('link', { name: 'Audit log' }).click();
    const log = page.getByRole('table', { name: 'Audit log' });
    await log.getByText('plan.create').first().waitFor();
    const text = (await log.textContent()) ?? '';
    for (const { name } of Object.values(PLAN)) expect(text).toContain(name);
    expect(text).toContain('plan.hide');

    // At phone width, and in each language.
    await page.setViewportSize({ width: 390, height: 800 });
    await page.getByRole('button', { name: 'Open or close the menu' }).click();
    await nav.getByRole('link', { name: 'Catalogue' }).click();
    await page.getByRole('heading', { name: 'Catalogue', level: 1 }).waitFor();
    await packages.waitFor();
    await expectNoSeriousViolations(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const [language, heading] of [
      ['por', 'Catálogo'],
      ['zh', '商品目录'],
      ['en', 'Catalogue'],
    ] as const) {
      await page.getByRole('combobox', { name: /Language|Idioma|语言/ }).selectOption(language);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await expectNoSeriousViolations(page);
    }
    await page.context().close();
  });
});
