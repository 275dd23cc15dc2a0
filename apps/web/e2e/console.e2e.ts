import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordSecret } from '../../server/src/test/test-log.js';
import { launchBrowser, openPage } from './support/browser.js';
import {
  addOwner,
  CONSOLE_WALK_TIMEOUT_MS,
  codeOf,
  consoleOrigin,
  expectNoSeriousViolations,
  firstSignIn,
  signOutAndIn,
} from './support/console.js';
import { type E2eServer, startServer } from './support/server.js';

const OWNER = 'owner@console.example.com';
const SUPPORT = 'support@console.example.com';

describe('the operator console', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('takes the first owner from the one-time password to the audit log of the operator they add', {
    timeout: CONSOLE_WALK_TIMEOUT_MS,
  }, async () => {
    const oneTimePassword = addOwner(server, OWNER);
    const page = await openPage(browser, consoleOrigin(server));
    await page.goto('/admin/');
    const { totpSecret: secret = '' } = await firstSignIn(
      page,
      { email: OWNER, role: 'owner', oneTimePassword },
      expectNoSeriousViolations,
    );

    // Owners see every section; Operators and the Audit log are theirs alone.
    const nav = page.getByRole('navigation', { name: 'Console sections' });
    await expect
      .poll(() => nav.getByRole('link').allTextContents())
      .toEqual(expect.arrayContaining(['Operators', 'Audit log', 'Authenticator app']));
    await nav.getByRole('link', { name: 'Operators' }).click();
    await page.getByRole('heading', { name: 'Operators', level: 1 }).waitFor();
    await expectNoSeriousViolations(page);

    const form = page.getByRole('form', { name: 'New operator' });
    await form.getByLabel('Email').fill(SUPPORT);
    await form.getByLabel('Role').selectOption('support');
    await form.getByRole('button', { name: 'Add operator' }).click();
    const dialog = page.getByRole('dialog', { name: `One-time password for ${SUPPORT}` });
    const supportPassword = (await dialog.getByTestId('one-time-password').textContent()) ?? '';
    recordSecret('password', supportPassword);
    expect(supportPassword).toMatch(/^[\w-]{20}$/);
    await expectNoSeriousViolations(page);
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await page.getByRole('table', { name: 'Operators' }).getByText(SUPPORT).waitFor();

    await nav.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    // Keyboard and screen reader: the new screen's heading has the focus.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    const log = page.getByRole('table', { name: 'Audit log' });
    await log.getByText('operator.add').first().waitFor();
    expect(await log.textContent()).toContain(SUPPORT);
    await expectNoSeriousViolations(page);

    // At phone width the menu is behind a burger.
    await page.setViewportSize({ width: 390, height: 800 });
    const burger = page.getByRole('button', { name: 'Open or close the menu' });
    await burger.click();
    await nav.getByRole('link', { name: 'Operators' }).click();
    await page.getByRole('heading', { name: 'Operators', level: 1 }).waitFor();
    await expectNoSeriousViolations(page);
    await page.setViewportSize({ width: 1280, height: 800 });

    for (const [language, heading] of [
      ['por', 'Operadores'],
      ['zh', '操作员'],
      ['en', 'Operators'],
    ] as const) {
      await page.getByRole('combobox', { name: /Language|Idioma|语言/ }).selectOption(language);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await expectNoSeriousViolations(page);
    }

    // Signed out, the owner signs in again with the password and the authenticator's code.
    await signOutAndIn(page, OWNER);
    // A code of the next time step: the one used to enrol is not taken twice.
    await page.getByLabel('Authenticator code').fill(codeOf(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.context().close();
  });
});

describe('the console under another ADMIN_PATH', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ ADMIN_PATH: '/ops' }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('serves the console, its assets and its API there', async () => {
    const oneTime = addOwner(server, OWNER);
    const page = await openPage(browser, consoleOrigin(server));
    expect((await page.goto('/admin/'))?.status()).toBe(404);
    await page.goto('/ops/operators');
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await page.getByLabel('Email').fill(OWNER);
    await page.getByLabel(/^Password/).fill(oneTime);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    await page.context().close();
  });
});
