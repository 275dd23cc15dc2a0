import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordSecret } from '../../server/src/test/test-log.js';
import { launchBrowser, openPage } from './support/browser.js';
import {
  addOperator,
  CONSOLE_WALK_TIMEOUT_MS,
  consoleOrigin,
  expectNoSeriousViolations,
  firstSignIn,
  signInOwner,
  signOutAndIn,
} from './support/console.js';
import { type E2eServer, startServer } from './support/server.js';

/**
 * Chromium's virtual authenticator on the page, over the DevTools protocol: a platform authenticator that keeps
 * passkeys and confirms the operator at once, as a laptop's fingerprint reader would. The console's origin is
 * localhost (PUBLIC_URL's host, the passkeys' RP ID), a secure context as WebAuthn needs.
 */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials };
}

async function openSecurity(page: Page) {
  await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Security' }).click();
  await page.getByRole('heading', { name: 'Security', level: 1 }).waitFor();
}

async function addPasskey(page: Page, name: string) {
  const form = page.getByRole('form', { name: 'Add a passkey' });
  await form.getByLabel('Name of the passkey').fill(name);
  await form.getByRole('button', { name: 'Add passkey' }).click();
  await page.getByRole('table', { name: 'My passkeys' }).getByRole('cell', { name, exact: true }).waitFor();
}

/** Signs out and in again with the password, up to the second factor, where a passkey is offered. */
async function signOutAndInToPasskey(page: Page, email: string) {
  await signOutAndIn(page, email);
  await page.getByRole('button', { name: 'Use a passkey' }).waitFor();
}

describe('the console: passkeys and API tokens', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it(
    'an owner adds a passkey, signs in with it instead of a code, and removes it',
    async () => {
      const email = 'passkey-owner@console.example.com';
      const { page } = await signInOwner(browser, server, email);
      const authenticator = await addVirtualAuthenticator(page);
      await openSecurity(page);
      await page.getByText('You have no passkey yet.').waitFor();
      await expectNoSeriousViolations(page);

      await addPasskey(page, 'Work laptop');
      await page.getByText('Passkey “Work laptop” added.').waitFor();
      expect(await authenticator.credentials()).toHaveLength(1);
      await expectNoSeriousViolations(page);

      // Signed out, the owner has both factors: the code field and the passkey; the passkey alone signs them in.
      await signOutAndInToPasskey(page, email);
      expect(await page.getByLabel('Authenticator code').isVisible()).toBe(true);
      await expectNoSeriousViolations(page);
      await page.getByRole('button', { name: 'Use a passkey' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();

      await openSecurity(page);
      const passkeys = page.getByRole('table', { name: 'My passkeys' });
      await expect.poll(() => passkeys.getByRole('cell', { name: 'Never', exact: true }).count()).toBe(0);
      for (const [language, heading] of [
        ['por', 'Segurança'],
        ['zh', '安全'],
        ['en', 'Security'],
      ] as const) {
        await page.getByRole('combobox', { name: /Language|Idioma|语言/ }).selectOption(language);
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        await expectNoSeriousViolations(page);
      }

      await passkeys.getByRole('button', { name: 'Remove Work laptop' }).click();
      const dialog = page.getByRole('dialog', { name: 'Remove the passkey' });
      await dialog.getByText('Remove the passkey “Work laptop”?').waitFor();
      await expectNoSeriousViolations(page);
      await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
      await page.getByText('You have no passkey yet.').waitFor();
      // The owner keeps the authenticator app: the next sign-in asks for its code alone.
      await signOutAndIn(page, email);
      await page.getByLabel('Authenticator code').waitFor();
      expect(await page.getByRole('button', { name: 'Use a passkey' }).count()).toBe(0);
      await page.context().close();
    },
    CONSOLE_WALK_TIMEOUT_MS,
  );

  it(
    'a support operator makes a passkey their second factor at their first sign-in, on a phone',
    async () => {
      const email = 'passkey-support@console.example.com';
      const oneTimePassword = addOperator(server, email, 'support');
      const page = await openPage(browser, consoleOrigin(server));
      await addVirtualAuthenticator(page);
      await page.goto('/admin/');
      await firstSignIn(page, { email, role: 'support', oneTimePassword });
      await page.setViewportSize({ width: 390, height: 844 });

      // At phone width the menu is behind a burger; the Security screen says the account has no second factor yet.
      await page.getByRole('button', { name: 'Open or close the menu' }).click();
      await openSecurity(page);
      await page.getByText(/Your account has no second factor/).waitFor();
      // Support operators see their passkeys, not the owners' API tokens.
      expect(await page.getByRole('heading', { name: 'API tokens' }).count()).toBe(0);
      await expectNoSeriousViolations(page);
      await addPasskey(page, 'Phone');
      await expect.poll(() => page.getByText(/Your account has no second factor/).count()).toBe(0);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectNoSeriousViolations(page);

      // Their next sign-in asks for the passkey, and for no code.
      await page.getByRole('button', { name: 'Open or close the menu' }).click();
      await signOutAndInToPasskey(page, email);
      expect(await page.getByLabel('Authenticator code').count()).toBe(0);
      await expectNoSeriousViolations(page);
      await page.getByRole('button', { name: 'Use a passkey' }).click();
      await page.getByRole('button', { name: 'Open or close the menu' }).waitFor();
      await page.context().close();
    },
    CONSOLE_WALK_TIMEOUT_MS,
  );

  it(
    'an owner makes an API token, shown once, that a script uses within its role until it is revoked',
    async () => {
      const { page } = await signInOwner(browser, server, 'token-owner@console.example.com');
      await openSecurity(page);
      const form = page.getByRole('form', { name: 'New API token' });
      await form.getByLabel('Name of the token').fill('Nightly report');
      await form.getByLabel('Role').selectOption('support');
      await form.getByRole('button', { name: 'Create token' }).click();

      const dialog = page.getByRole('dialog', { name: 'API token “Nightly report”' });
      await dialog.getByText(/shown only this once/).waitFor();
      const token = (await dialog.getByTestId('api-token').textContent()) ?? '';
      recordSecret('session token', token);
      expect(token.length).toBeGreaterThan(20);
      await dialog.getByRole('button', { name: 'Copy' }).click();
      await dialog.getByRole('button', { name: 'Copied' }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
      await expectNoSeriousViolations(page);
      await dialog.getByRole('button', { name: 'Close' }).last().click();
      const tokens = page.getByRole('table', { name: 'API tokens' });
      await tokens.getByRole('cell', { name: 'Nightly report', exact: true }).waitFor();
      // Once closed, the secret is nowhere on the page.
      expect(await page.content()).not.toContain(token);
      await expectNoSeriousViolations(page);

      // A script: answered as a support operator is, refused what the role may not do.
      const call = (path: string) =>
        fetch(`${server.url}/admin${path}`, {
          headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
        });
      const customers = await call('/api/customers');
      expect(customers.status).toBe(200);
      expect(await customers.json()).toMatchObject({ code: 0 });
      expect((await call('/api/operators')).status).toBe(403);
      await page.reload();
      await tokens.getByRole('cell', { name: 'Never', exact: true }).waitFor({ state: 'detached' });

      await tokens.getByRole('button', { name: 'Revoke Nightly report' }).click();
      const revoke = page.getByRole('dialog', { name: 'Revoke the API token' });
      await expectNoSeriousViolations(page);
      await revoke.getByRole('button', { name: 'Revoke', exact: true }).click();
      await page.getByText('There are no API tokens.').waitFor();
      expect((await call('/api/customers')).status).toBe(401);
      await page.context().close();
    },
    CONSOLE_WALK_TIMEOUT_MS,
  );
});
