import { REQUEST_LANGUAGE } from '@mutenet/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount, logIn, PASSWORD, typePictureCode } from './support/accounts.js';
import {
  chooseLanguage,
  expectAccessible,
  focusedHeading,
  launchBrowser,
  openPage,
  PHONE,
  tabTo,
  waitForTransitions,
} from './support/browser.js';
import { type E2eServer, startServer } from './support/server.js';

describe('customer accounts in a real browser', () => {
  let server: E2eServer;
  let browser: Browser;
  const page = (options = {}) => openPage(browser, server.url, options);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sends a visitor without a token to the login screen, and opens the public screens', async () => {
    const tab = await page();
    for (const guarded of ['/person/pannel', '/person/home', '/person/person', '/person/orders', '/person/invite']) {
      await tab.goto(guarded);
      await tab.waitForURL('**/person/login');
    }
    await tab.goto('/');
    await tab.waitForURL('**/person/login');
    await expectAccessible(tab);
    for (const open of ['/person/register', '/person/forgetPasswords', '/person/showDocx']) {
      await tab.goto(open);
      expect(new URL(tab.url()).pathname).toBe(open);
      await tab.getByRole('heading').first().waitFor();
      await expectAccessible(tab);
    }
    await expect.poll(() => tab.getByTestId('licence-agreement').textContent()).toMatch(/Hong Kong|Hong Kong/);
  });

  it('registers with the emailed code, logs in, keeps the session over a reload and signs out', async () => {
    const tab = await page();
    const email = 'newcomer@example.com';
    await tab.goto('/person/register');
    await chooseLanguage(tab, 'en');
    await tab.getByTestId('name').fill('Newcomer');
    await tab.getByTestId('email').fill(email);
    await expect.poll(() => tab.getByTestId('picture-code-hint').isVisible()).toBe(true);
    await typePictureCode(tab);
    await tab.getByTestId('send-email-code').click();
    await tab.getByText('Sent successfully').first().waitFor();
    await tab.getByTestId('emailCode').fill(await server.latestCode(email));
    await tab.getByTestId('password').fill('weak');
    await tab
      .getByText(/uppercase and lowercase letters and numbers/i)
      .first()
      .waitFor();
    await tab.getByTestId('password').fill(PASSWORD);
    await tab.getByTestId('repeatPassword').fill(PASSWORD);
    expect(await tab.getByTestId('register-submit').isDisabled()).toBe(true);
    await tab.getByTestId('agree-terms').check();
    expect(await tab.getByTestId('register-submit').isDisabled()).toBe(false);
    await expectAccessible(tab);
    await tab.getByTestId('register-submit').click();
    await tab.waitForURL('**/person/login');

    await logIn(tab, email);
    await tab.getByTestId('user-menu').click();
    expect(await tab.getByTestId('user-email').textContent()).toContain(email);
    // Once the menu has opened fully: under load, an Escape pressed during its opening transition was missed.
    await waitForTransitions(tab);
    await tab.keyboard.press('Escape');
    // Checked once the menu has faded out: half-faded, its items fail the contrast rule.
    await tab.getByTestId('menu-sign-out').waitFor({ state: 'hidden' });
    await waitForTransitions(tab);
    await expectAccessible(tab);

    // The session check on reload keeps the customer in.
    const sessionCheck = tab.waitForRequest(
      (request) => request.url().endsWith('/mutenet/login') && !request.postData(),
    );
    await tab.reload();
    await sessionCheck;
    await tab.getByTestId('page-title').waitFor();
    expect(new URL(tab.url()).pathname).toBe('/person/pannel');

    await tab.getByTestId('user-menu').click();
    await tab.getByTestId('menu-sign-out').click();
    await tab.waitForURL('**/person/login');
    expect(await tab.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await tab.goto('/person/pannel');
    await tab.waitForURL('**/person/login');
  });

  it('switches language, sends it with every call and keeps it for the session', async () => {
    const email = 'polyglot@example.com';
    await insertAccount(server, email);
    const tab = await page();
    await logIn(tab, email);
    await tab.getByTestId('language-select').selectOption('por');
    await expect.poll(() => tab.getByTestId('page-title').textContent()).toBe('Painel');
    expect(await tab.evaluate(() => document.documentElement.lang)).toBe('pt-BR');
    const call = tab.waitForRequest((request) => request.url().endsWith('/mutenet/login'));
    await tab.reload();
    expect((await call).headers()['accept-language']).toBe('pt-BR');
    await tab.getByTestId('language-select').selectOption('en');
    await expect.poll(() => tab.getByTestId('page-title').textContent()).toBe('Dashboard');
    expect(await tab.evaluate(() => sessionStorage.getItem('language'))).toBe('en');
  });

  it('resets a forgotten password with the emailed code', async () => {
    const email = 'forgetful@example.com';
    await insertAccount(server, email);
    const tab = await page();
    await tab.goto('/person/forgetPasswords');
    await chooseLanguage(tab, 'en');
    await tab.getByTestId('reset-submit').click();
    await tab.getByText('Email format error').first().waitFor();
    await tab.getByTestId('email').fill(email);
    await typePictureCode(tab);
    await tab.getByTestId('send-email-code').click();
    await tab.getByText('Sent successfully').first().waitFor();
    await tab.getByTestId('newPwd').fill('Renewed123');
    await tab.getByTestId('repeatPwd').fill('Renewed123');
    await tab.getByTestId('emailCode').fill(await server.latestCode(email));
    await expectAccessible(tab);
    await tab.getByTestId('reset-submit').click();
    await tab.waitForURL('**/person/login');
    await logIn(tab, email, 'Renewed123');
  });

  it('changes the password in the user centre and signs in again with it', async () => {
    const email = 'changer@example.com';
    await insertAccount(server, email);
    const tab = await page();
    await logIn(tab, email);
    await chooseLanguage(tab, 'en');
    await tab.getByTestId('nav-userCentre').click();
    await tab.waitForURL('**/person/person');
    // The user centre is a lazy screen: check it once it has rendered and settled.
    await tab.getByTestId('change-password-form').waitFor();
    await waitForTransitions(tab);
    await expectAccessible(tab);
    await tab.getByTestId('oldPwd').fill(PASSWORD);
    await tab.getByTestId('newPwd').fill('Changed123');
    await tab.getByTestId('repeatPwd').fill('Changed124');
    await tab.getByTestId('change-password-submit').click();
    await tab.getByText('The new password entered twice is different').first().waitFor();
    await tab.getByTestId('repeatPwd').fill('Changed123');
    await tab.getByTestId('change-password-submit').click();
    await tab.waitForURL('**/person/login');
    expect(await tab.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await logIn(tab, email, 'Changed123');
  });

  it('hides the menu and header in from=mobile mode and takes the language from the path or query', async () => {
    const email = 'webview@example.com';
    await insertAccount(server, email);
    const tab = await page(PHONE);
    await logIn(tab, email);
    for (const [url, heading] of [
      ['/person/pannel/mobile/en', 'Dashboard'],
      ['/person/shop?from=mobile&lang=por', 'Comprar assinatura'],
    ] as const) {
      await tab.goto(url);
      await tab.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await tab.getByRole('heading', { level: 1 }).first().textContent()).toBe(heading);
      expect(await tab.getByTestId('user-menu').count()).toBe(0);
      expect(await tab.getByTestId('menu-burger').count()).toBe(0);
      expect(await tab.getByRole('navigation').count()).toBe(0);
      await expectAccessible(tab);
    }
  });

  it('fits the header to a phone and a desk in each language: every language name whole, no room left empty', async () => {
    const email = 'header@example.com';
    await insertAccount(server, email);
    for (const [device, options, width] of [
      ['phone', PHONE, 375],
      ['desk', { viewport: { width: 1280, height: 800 } }, 1280],
    ] as const) {
      const tab = await page(options);
      await logIn(tab, email);
      for (const language of ['por', 'en', 'zh'] as const) {
        // The knowledge base: the longest title in Portuguese ("Base de conhecimento"), which must give way first.
        await tab.goto(`/person/document?lang=${language}`);
        await expect.poll(() => tab.evaluate(() => document.documentElement.lang)).toBe(REQUEST_LANGUAGE[language]);
        await tab.getByTestId('user-menu').waitFor();
        const header = await tab.evaluate(() => {
          const select = document.querySelector<HTMLSelectElement>('[data-testid="language-select"]')!;
          const style = getComputedStyle(select);
          const context = document.createElement('canvas').getContext('2d')!;
          context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const button = document.querySelector('[data-testid="user-menu"]')!;
          const inner = button.querySelector('.mantine-Button-inner')!.getBoundingClientRect().width;
          const icon = button.querySelector('.mantine-Button-section')!.getBoundingClientRect().width;
          return {
            // The widest name the select offers, in its own font, against the room its icons leave for it.
            widestName: Math.max(...[...select.options].map((option) => context.measureText(option.text).width)),
            room: select.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight),
            accountBeyondIcon: inner - icon,
            pageWidth: document.documentElement.scrollWidth,
          };
        });
        expect(header.widestName, `${device}, ${language}`).toBeLessThanOrEqual(header.room);
        expect(header.pageWidth, `${device}, ${language}`).toBeLessThanOrEqual(width);
        // On a phone the account button is its icon alone (the email and chevron show from the `sm` width up).
        if (device === 'phone') expect(header.accountBeyondIcon, language).toBeLessThanOrEqual(1);
      }
      await tab.context().close();
    }
  });

  it('offers the side menu as a drawer at phone width, by the keyboard', async () => {
    const email = 'phone@example.com';
    await insertAccount(server, email);
    const tab: Page = await page(PHONE);
    await logIn(tab, email);
    await chooseLanguage(tab, 'en');
    // By the keyboard: the burger opens the drawer, Escape closes it and gives the focus back to the burger.
    const burger = tab.getByTestId('menu-burger');
    await tabTo(tab, burger);
    await tab.keyboard.press('Enter');
    const drawer = tab.getByRole('dialog');
    await drawer.waitFor();
    await tab.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await expect.poll(() => burger.evaluate((node) => node === document.activeElement)).toBe(true);
    // Opened again, its entries are reached by Tab.
    await tab.keyboard.press('Enter');
    await drawer.waitFor();
    await waitForTransitions(tab);
    await expectAccessible(tab);
    await tabTo(tab, tab.getByTestId('drawer-nav-userCentre'));
    await tab.keyboard.press('Enter');
    await tab.waitForURL('**/person/person');
    // The focus goes to the new screen's heading, and the closing drawer does not take it back to the burger.
    await expect.poll(() => focusedHeading(tab)).toBe('User centre');
    await tab.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await focusedHeading(tab)).toBe('User centre');
    await expect.poll(() => tab.evaluate(() => sessionStorage.getItem('activePath'))).toBe('/person');
  });
});
