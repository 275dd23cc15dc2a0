import { AxeBuilder } from '@axe-core/playwright';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordSecret } from '../../server/src/test/test-log.js';
import { admin } from './support/admin.js';
import { launchBrowser, openPage, waitForTransitions } from './support/browser.js';
import { type E2eServer, startServer } from './support/server.js';

const OWNER = 'owner@console.example.com';
const SUPPORT = 'support@console.example.com';
const PASSWORD = 'Console-Owner-2026';

/** No serious or critical axe violation on the screen as it is now. */
async function expectNoSeriousViolations(page: Page) {
  await waitForTransitions(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((n) => n.target).join(', ')})`);
  expect(serious).toEqual([]);
}

/** The first owner, made on the command line as an operator does on a new install. */
function addOwner(server: E2eServer): string {
  const { oneTimePassword } = admin<{ oneTimePassword: string }>(server, 'operator', 'add', OWNER, '--role', 'owner');
  recordSecret('password', oneTimePassword);
  return oneTimePassword;
}

/**
 * The console as its operators reach it: at the server's public URL (localhost:PORT by default), whose origin the
 * server takes changes from.
 */
const consoleOrigin = (server: E2eServer) => server.url.replace('127.0.0.1', 'localhost');

const codeOf = (secret: string, timestamp = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp });

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

  it('takes the first owner from the one-time password to the audit log of the operator they add', async () => {
    const oneTime = addOwner(server);
    const page = await openPage(browser, consoleOrigin(server));

    await page.goto('/admin/');
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await expectNoSeriousViolations(page);
    await page.getByLabel('Email').fill(OWNER);
    await page.getByLabel(/^Password/).fill(oneTime);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    await expectNoSeriousViolations(page);
    await page.getByLabel('Current password').fill(oneTime);
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();

    await page.getByRole('heading', { name: 'Set up an authenticator app' }).waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
    recordSecret('password', secret);
    await expect.poll(() => page.getByRole('img', { name: /QR code/ }).isVisible()).toBe(true);
    await expectNoSeriousViolations(page);
    await page.getByLabel('Authenticator code').fill(codeOf(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();

    // No overview yet: the owner's first section is Operators.
    const nav = page.getByRole('navigation', { name: 'Console sections' });
    await page.getByRole('heading', { name: 'Operators', level: 1 }).waitFor();
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Operators', 'Audit log', 'Authenticator app']);
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
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await page.getByLabel('Email').fill(OWNER);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // A code of the next time step: the one used to enrol is not taken twice.
    await page.getByLabel('Authenticator code').fill(codeOf(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Operators', level: 1 }).waitFor();
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
    const oneTime = addOwner(server);
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
