import { AxeBuilder } from '@axe-core/playwright';
import type { OperatorRole } from '@mutenet/contract';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { recordSecret } from '../../../server/src/test/test-log.js';
import { logIn } from './accounts.js';
import { admin } from './admin.js';
import { openPage, waitForTransitions } from './browser.js';
import type { E2eServer } from './server.js';

/** The password operators choose in place of their one-time password in these walks. */
export const OPERATOR_PASSWORD = 'Console-Owner-2026';

/**
 * A console walk's time limit: each signs in once or more (argon2) and checks axe on many screens in a real browser,
 * which takes minutes on a busy CI machine, well past the suite's default minute.
 */
export const CONSOLE_WALK_TIMEOUT_MS = 240_000;

/** An operator as a walk knows them after their first sign-in. */
export type ConsoleOperator = { email: string; role: OperatorRole; password: string; totpSecret?: string };

/** No serious or critical axe violation on the screen as it is now. */
export async function expectNoSeriousViolations(page: Page) {
  await waitForTransitions(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((n) => n.target).join(', ')})`);
  expect(serious).toEqual([]);
}

/** An operator made on the command line, as the first owner is on a new install; returns the one-time password. */
export function addOperator(server: E2eServer, email: string, role: OperatorRole): string {
  const { oneTimePassword } = admin<{ oneTimePassword: string }>(server, 'operator', 'add', email, '--role', role);
  recordSecret('password', oneTimePassword);
  return oneTimePassword;
}

export const addOwner = (server: E2eServer, email: string) => addOperator(server, email, 'owner');

/**
 * The console as its operators reach it: at the server's public URL (localhost:PORT by default), whose origin the
 * server takes changes from.
 */
export const consoleOrigin = (server: E2eServer) => server.url.replace('127.0.0.1', 'localhost');

/** The authenticator app's code for `secret` at `timestamp`. */
export const codeOf = (secret: string, timestamp = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp });

/**
 * Takes an operator on `page` (at the console's sign-in screen) from their one-time password through a password of
 * their own and, for owners (who must have one), the enrolment of an authenticator app, to the console. `check` runs
 * on each screen of the way (the console's own walk checks axe there).
 */
export async function firstSignIn(
  page: Page,
  { email, role, oneTimePassword }: { email: string; role: OperatorRole; oneTimePassword: string },
  check: (page: Page) => Promise<void> = async () => {},
): Promise<ConsoleOperator> {
  await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
  await check(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(oneTimePassword);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
  await check(page);
  await page.getByLabel('Current password').fill(oneTimePassword);
  await page.getByLabel('New password').fill(OPERATOR_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  const operator: ConsoleOperator = { email, role, password: OPERATOR_PASSWORD };

  if (role === 'owner') {
    await page.getByRole('heading', { name: 'Set up an authenticator app' }).waitFor();
    operator.totpSecret = (await page.getByTestId('totp-secret').textContent()) ?? '';
    recordSecret('password', operator.totpSecret);
    await expect.poll(() => page.getByRole('img', { name: /QR code/ }).isVisible()).toBe(true);
    await check(page);
    await page.getByLabel('Authenticator code').fill(codeOf(operator.totpSecret));
    await page.getByRole('button', { name: 'Confirm' }).click();
  }
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  return operator;
}

/** Signs the operator on `page` out, and in again with their password: the page is at the second factor, if any. */
export async function signOutAndIn(page: Page, email: string) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(OPERATOR_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * A fresh operator of `role`, made on the command line and signed in through the console's screens in a browser
 * context of its own (English): the page is on the console, on the role's first section.
 */
export async function signInOperator(
  browser: Browser,
  server: E2eServer,
  role: OperatorRole,
  email = `${role}-${Date.now()}@console.example.com`,
): Promise<{ page: Page; operator: ConsoleOperator }> {
  const oneTimePassword = addOperator(server, email, role);
  const page = await openPage(browser, consoleOrigin(server));
  await page.goto('/admin/');
  const operator = await firstSignIn(page, { email, role, oneTimePassword });
  return { page, operator };
}

/** A fresh owner, signed in with their authenticator enrolled: the page is on the console. */
export const signInOwner = (browser: Browser, server: E2eServer, email?: string) =>
  signInOperator(browser, server, 'owner', email);

/**
 * Signs `email` (an existing customer) in to the panel on a page of its own and buys the demo catalogue's first
 * package as the panel does, the sandbox gateway approving it (a server started with SEED_DEMO_CATALOG and
 * PAYMENT_SANDBOX): the customer then has a running package, so nodes list them. The page stays signed in.
 */
export async function buyFirstPackage(browser: Browser, server: E2eServer, email: string): Promise<Page> {
  const tab = await openPage(browser, server.url);
  await logIn(tab, email);
  const token = (await tab.evaluate(() => localStorage.getItem('token'))) ?? '';
  const post = async (path: string, form?: Record<string, string>) => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { Authorization: token, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    return ((await response.json()) as { data: Record<string, string> }).data;
  };
  const { orderNo } = await post('/mutenet/user/order/create', { pkgId: '1', currency: 'USD' });
  expect((await post(`/payment/sandbox/${orderNo}/approve`)).status).toBe('success');
  return tab;
}
