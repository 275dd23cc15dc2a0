import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount, logIn } from './support/accounts.js';
import { expectAccessible, launchBrowser, openPage, PHONE, waitForTransitions } from './support/browser.js';
import { type E2eServer, startServer } from './support/server.js';

/** What the page threw and nobody caught, and whether it still shows anything. */
function watchFailures(tab: Page) {
  const uncaught: string[] = [];
  tab.on('pageerror', (error) => uncaught.push(error.message));
  return {
    uncaught,
    blank: () => tab.evaluate(() => document.getElementById('root')?.innerText.trim() === ''),
  };
}

/** The toasts shown now: each one's title and message. */
const toasts = (tab: Page) => tab.locator('.mantine-Notification-root').allInnerTexts();

describe('the panel with the server unreachable, on a phone', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    await insertAccount(server, 'offline@example.com');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows "Network error" for a call with no answer, and a screen whose code cannot load says so with a retry', async () => {
    const tab = await openPage(browser, server.url);
    const failures = watchFailures(tab);
    await logIn(tab, 'offline@example.com');
    await tab.goto('/person/pannel?lang=en');
    const menu = tab.getByRole('navigation', { name: 'Main menu' });
    // The orders' screen is opened once, so that its code is in the page.
    await menu.getByRole('link', { name: 'My order' }).click();
    await tab.getByRole('heading', { level: 1, name: 'My order' }).waitFor();
    await menu.getByRole('link', { name: 'Dashboard' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await tab.context().setOffline(true);

    // Its list is read afresh as it opens, and no answer comes.
    await menu.getByRole('link', { name: 'My order' }).click();
    await tab.getByRole('heading', { level: 1, name: 'My order' }).waitFor();
    await expect.poll(() => toasts(tab)).toContainEqual(expect.stringMatching(/^Error\s+Network error$/));

    // The node status' code has not been asked for yet.
    await menu.getByRole('link', { name: 'Node status' }).click();
    const message = tab.getByTestId('route-error');
    await message.waitFor();
    expect(await message.getAttribute('role')).toBe('alert');
    expect(await message.innerText()).toMatch(
      /^This screen could not be loaded\.\s+Check your connection and try again\.\s+Try again$/,
    );
    // Inside the shell, which stays.
    expect(await tab.getByRole('banner').isVisible()).toBe(true);
    expect(await failures.blank()).toBe(false);
    await waitForTransitions(tab);
    await expectAccessible(tab);

    await tab.context().setOffline(false);
    await message.getByRole('button', { name: 'Try again' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Node status' }).waitFor();
    expect(failures.uncaught).toEqual([]);
  });

  it('keeps the login screen and its toast when no call is answered, in the language on screen', async () => {
    const tab = await openPage(browser, server.url, PHONE);
    const failures = watchFailures(tab);
    await tab.goto('/person/login');
    await tab.getByTestId('captcha-picture').waitFor();
    // The server stops answering: every call fails, as every file not loaded yet would.
    await tab.route('**/*', (route) => route.abort('connectionrefused'));
    await tab.getByTestId('captcha-refresh').click();
    await expect.poll(() => toasts(tab)).toContainEqual(expect.stringMatching(/^Erro\s+Erro de rede$/));
    expect(await tab.getByRole('heading', { level: 1, name: 'Entrar' }).isVisible()).toBe(true);
    expect(failures.uncaught).toEqual([]);
  });

  it('says a public screen whose code cannot load could not be loaded, with a retry, not a blank page', async () => {
    const tab = await openPage(browser, server.url, PHONE);
    const failures = watchFailures(tab);
    await tab.goto('/person/login?lang=zh-Hans');
    await tab.getByTestId('captcha-picture').waitFor();
    await tab.context().setOffline(true);
    await tab.getByTestId('register-link').click();
    const message = tab.getByTestId('route-error');
    await message.waitFor();
    expect(await message.innerText()).toMatch(/^无法加载此页面。\s+请检查网络连接后重试。\s+重试$/);
    expect(await message.getByRole('button', { name: '重试' }).isVisible()).toBe(true);
    expect(await failures.blank()).toBe(false);
    await waitForTransitions(tab);
    await expectAccessible(tab);
    expect(failures.uncaught).toEqual([]);
  });
});
