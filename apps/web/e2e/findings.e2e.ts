import { LANGUAGES, type Language, REQUEST_LANGUAGE } from '@mutenet/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount, logIn } from './support/accounts.js';
import { chooseLanguage, launchBrowser, openPage, PHONE } from './support/browser.js';
import { type E2eServer, startServer } from './support/server.js';

/** An address as long as real ones get, with dots and a hyphen to break at. */
const LONG_EMAIL = 'maria.fernanda.oliveira-santos@correio-empresarial.example.com.br';
// The order details' title shows whatever the order: one that is not there will do.
const SIGNED_IN_SCREENS = [
  'pannel',
  'document',
  'shop',
  'state',
  'orders',
  'person',
  'invite',
  'help',
  'flow',
  'status/1',
];

/**
 * Where the text of an element breaks from one drawn line to the next, each as the text from the last character of a
 * line to the first of the next (`"a|b"`, or `"e |s"` when a space ends the line).
 */
function lineBreaks(element: Locator): Promise<string[]> {
  return element.evaluate((node) => {
    const text = node.textContent ?? '';
    const drawn: { offset: number; top: number }[] = [];
    let offset = 0;
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let part = walker.nextNode() as Text | null; part; part = walker.nextNode() as Text | null) {
      for (let index = 0; index < part.data.length; index += 1, offset += 1) {
        const range = document.createRange();
        range.setStart(part, index);
        range.setEnd(part, index + 1);
        // A space that ends a line is drawn with no width, or not at all.
        const rect = [...range.getClientRects()].find((box) => box.width > 0);
        if (rect) drawn.push({ offset, top: Math.round(rect.top) });
      }
    }
    const breaks: string[] = [];
    for (let index = 1; index < drawn.length; index += 1) {
      const [last, first] = [drawn[index - 1]!, drawn[index]!];
      if (first.top > last.top) breaks.push(`${text.slice(last.offset, first.offset)}|${text[first.offset]}`);
    }
    return breaks;
  });
}

/** Whether a line break splits a word: not at a space or after a hyphen, nor in Chinese (which breaks anywhere). */
const CJK = /[\u3000-\u9fff\uff00-\uffef]/;
function splitsWord(pair: string): boolean {
  const [before = '', after = ''] = pair.split('|');
  return !/\s|-$/.test(before) && !CJK.test(before) && !CJK.test(after);
}

describe('what a customer walking the panel met (issue 60)', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ SEED_DEMO_CATALOG: 'true' }), launchBrowser()]);
    await insertAccount(server, LONG_EMAIL);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function waitForLanguage(tab: Page, language: Language) {
    await expect.poll(() => tab.evaluate(() => document.documentElement.lang)).toBe(REQUEST_LANGUAGE[language]);
  }

  it('opens the licence from the register screen in the language the customer chose there', async () => {
    const tab = await openPage(browser, server.url);
    await tab.goto('/person/register');
    await chooseLanguage(tab, 'en');
    const [licence] = await Promise.all([tab.context().waitForEvent('page'), tab.getByTestId('terms-link').click()]);
    await licence.getByTestId('licence-agreement').waitFor();
    await waitForLanguage(licence, 'en');
    await expect
      .poll(() => licence.getByRole('heading', { level: 1 }).first().textContent())
      .toBe('User licence agreement');
    expect(await licence.getByTestId('licence-agreement').textContent()).toContain('Last updated: 1 August 2023');

    // Chinese, which the register screen's menu does not offer, comes with the address.
    await tab.goto('/person/register?lang=zh');
    await waitForLanguage(tab, 'zh');
    const [chinese] = await Promise.all([tab.context().waitForEvent('page'), tab.getByTestId('terms-link').click()]);
    await chinese.getByTestId('licence-agreement').waitFor();
    await waitForLanguage(chinese, 'zh');
    expect(await chinese.getByTestId('licence-agreement').textContent()).toContain('最后更新');
    await tab.context().close();
  });

  it.each([
    ['en', '$4.99', '$6.00', '100 GB / 30 days'],
    ['por', 'R$24,90', 'R$30,00', '100 GB / 30 dias'],
    ['zh', '$4.99', '$6.00', '100 GB / 30 天'],
  ] as const)(
    'shows the demo catalogue in %s: the old price with the decimals of the price, the type translated',
    async (language, real, old, type) => {
      const tab = await openPage(browser, server.url);
      await logIn(tab, LONG_EMAIL);
      await tab.goto(`/person/shop?lang=${language}`);
      await waitForLanguage(tab, language);
      const card = tab.getByTestId('plan-card').first();
      await card.waitFor();
      // Each after its name for screen readers ("Price: "), or its label.
      const shown = async (testId: string) => (await card.getByTestId(testId).textContent())?.split(': ').at(-1);
      expect(await shown('plan-price-real')).toBe(real);
      expect(await shown('plan-price-old')).toBe(old);
      expect(await shown('plan-package')).toBe(type);
      await tab.context().close();
    },
  );

  it.each(LANGUAGES)(
    'shows every header title whole on a 375 px phone, and breaks a long email only between its parts (%s)',
    async (language) => {
      const tab = await openPage(browser, server.url, PHONE);
      await logIn(tab, LONG_EMAIL);
      const cut: string[] = [];
      for (const path of SIGNED_IN_SCREENS.map((screen) => `/person/${screen}`)) {
        await tab.goto(`${path}?lang=${language}`);
        await waitForLanguage(tab, language);
        await tab.waitForLoadState('networkidle');
        const title = tab.getByTestId('page-title');
        const drawn = await title.evaluate((node) => {
          const box = node.getBoundingClientRect();
          const header = (node.closest('header') ?? document.body).getBoundingClientRect();
          return {
            text: node.textContent ?? '',
            clipped: node.scrollWidth > node.clientWidth || node.scrollHeight > node.clientHeight,
            ellipsis: getComputedStyle(node).textOverflow === 'ellipsis',
            outside: box.top < header.top || box.bottom > header.bottom || box.right > header.right,
          };
        });
        const breaks = await lineBreaks(title);
        const splits = breaks.filter(splitsWord);
        // Two lines fit the header; a third would crowd it.
        if (drawn.clipped || drawn.ellipsis || drawn.outside || splits.length > 0 || breaks.length > 1) {
          cut.push(`${path}: "${drawn.text}" ${JSON.stringify({ ...drawn, breaks })}`);
        }
      }
      expect(cut).toEqual([]);

      await tab.getByTestId('user-menu').click();
      const email = tab.getByTestId('user-email');
      await email.waitFor();
      expect((await email.textContent())?.replace(/\s/g, '')).toBe(LONG_EMAIL);
      // Too long for one line on a phone: it breaks, but only after the @ or before a dot (or after a hyphen).
      const breaks = await lineBreaks(email);
      expect(breaks.length).toBeGreaterThan(0);
      expect(breaks.filter((pair) => !/^[@-]\||\|\.$/.test(pair))).toEqual([]);
      const box = await email.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.viewport!.width).toBe(true);
      await tab.context().close();
    },
  );

  it('shows a long email on one line beside the account icon on a wide screen, whole on hover', async () => {
    const tab = await openPage(browser, server.url, { viewport: { width: 1280, height: 800 } });
    await logIn(tab, LONG_EMAIL);
    const shown = tab.getByTestId('user-menu').getByText(LONG_EMAIL);
    await shown.waitFor();
    expect(await lineBreaks(shown)).toEqual([]);
    expect(await tab.getByTestId('user-menu').getAttribute('title')).toBe(LONG_EMAIL);
    expect(await tab.getByTestId('user-menu').getAttribute('aria-label')).toContain(LONG_EMAIL);
    await tab.context().close();
  });
});
