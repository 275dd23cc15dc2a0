import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { recordSecret } from '../../../server/src/test/test-log.js';
import { CAPTCHA_TEST_CODE, type E2eServer } from './server.js';

export const PASSWORD = 'Secret123';

/**
 * An account written straight into the server's database, for flows that must not spend the address's one email
 * code a minute on registering first (the reset flow). The register flow itself is driven through the screens.
 */
export async function insertAccount(server: E2eServer, email: string, password = PASSWORD) {
  recordSecret('password', password);
  const values = [email, 'E2E', await hash(password, { algorithm: 2 }), randomUUID(), Date.now()];
  if (server.database === 'postgres') {
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      await client.query(
        'insert into users (email, name, password_hash, uuid, created_at) values ($1, $2, $3, $4, $5)',
        values,
      );
    } finally {
      await client.end();
    }
    return;
  }
  const database = new SQLite(path.join(server.dataDir, 'e2e.db'));
  try {
    database
      .prepare('insert into users (email, name, password_hash, uuid, created_at) values (?, ?, ?, ?, ?)')
      .run(...values);
  } finally {
    database.close();
  }
}

/**
 * Types the picture code the test server accepts, once the picture is there: a picture that arrives after the code
 * was typed clears it (it can be slow on a busy machine).
 */
export async function typePictureCode(page: Page) {
  await page.getByTestId('captcha-picture').waitFor();
  await page.getByTestId('imgCode').fill(CAPTCHA_TEST_CODE);
}

/** Logs in through the login screen and waits for the dashboard. */
export async function logIn(page: Page, email: string, password = PASSWORD) {
  await page.goto('/person/login');
  await page.getByTestId('email').fill(email);
  await page.getByTestId('password').fill(password);
  await typePictureCode(page);
  await page.getByTestId('login-submit').click();
  await page.waitForURL('**/person/pannel');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  recordSecret('password', password);
  recordSecret('session token', await page.evaluate(() => localStorage.getItem('token')));
}
