import path from 'node:path';
import { CLIENT_APPS } from '@mutenet/contract';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.js';

/** The ConfigError that loading these variables throws. */
function configErrorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('runs with no variables at all: SQLite, the outbox, no Redis, no SMTP', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 8080,
      host: '0.0.0.0',
      workers: 1,
      databaseUrl: 'sqlite:./data/mutenet.db',
      redisUrl: undefined,
      smtpUrl: undefined,
      publicUrl: 'http://localhost:8080',
      mailFrom: 'Mutenet <no-reply@localhost>',
      mailOutboxDir: path.resolve('./data/outbox'),
      captchaTestCode: undefined,
      appVersion: '1.0.0',
      websiteUrl: 'http://localhost:8080/person/',
      logLevel: 'info',
      trustProxy: false,
    });
    expect(path.isAbsolute(config.webDistDir)).toBe(true);
    expect(config.webDistDir.endsWith(path.join('web', 'dist'))).toBe(true);
    expect(Object.keys(config.downloads).sort()).toEqual([...CLIENT_APPS].sort());
    for (const link of Object.values(config.downloads)) expect(link).toMatch(/^https:\/\//);
  });

  it('takes every variable it knows', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: '3000',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://mutenet:secret@db:5432/mutenet',
      REDIS_URL: 'rediss://cache:6380/1',
      PUBLIC_URL: 'https://panel.example.com///',
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      MAIL_FROM: 'Panel <panel@example.com>',
      MAIL_OUTBOX_DIR: '/var/mail/outbox',
      APP_VERSION: '2.3.4',
      WEBSITE_URL: 'https://example.com/',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: '1',
      WEB_DIST_DIR: '/srv/web',
      DOWNLOAD_URL_V2RAYNG: 'https://example.com/v2rayng.apk',
      DOWNLOAD_URL_FOXRAY: 'https://example.com/foxray',
    });
    expect(config).toMatchObject({
      env: 'production',
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: 'postgres://mutenet:secret@db:5432/mutenet',
      redisUrl: 'rediss://cache:6380/1',
      publicUrl: 'https://panel.example.com',
      smtpUrl: 'smtps://user:pass@mail.example.com:465',
      mailFrom: 'Panel <panel@example.com>',
      mailOutboxDir: '/var/mail/outbox',
      appVersion: '2.3.4',
      websiteUrl: 'https://example.com/',
      logLevel: 'warn',
      trustProxy: true,
      webDistDir: '/srv/web',
    });
    expect(config.downloads.v2rayNG).toBe('https://example.com/v2rayng.apk');
    expect(config.downloads.foxray).toBe('https://example.com/foxray');
    expect(config.downloads.shadowrocket).toBe(loadConfig({}).downloads.shadowrocket);
    expect(config.publicUrl).toBe('https://panel.example.com');
    expect(loadConfig({ PORT: '4000' }).publicUrl).toBe('http://localhost:4000');
    expect(loadConfig({ DATABASE_URL: 'postgresql://h/db' }).databaseUrl).toBe('postgresql://h/db');
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it("defaults the website button to the panel's own address: PUBLIC_URL, or this port on localhost", () => {
    expect(loadConfig({ PORT: '3000' }).websiteUrl).toBe('http://localhost:3000/person/');
    expect(loadConfig({ PORT: '3000', PUBLIC_URL: 'https://panel.example.com/' }).websiteUrl).toBe(
      'https://panel.example.com/person/',
    );
    expect(loadConfig({ PUBLIC_URL: 'https://panel.example.com', WEBSITE_URL: '' }).websiteUrl).toBe(
      'https://panel.example.com/person/',
    );
    expect(
      loadConfig({ PUBLIC_URL: 'https://panel.example.com', WEBSITE_URL: 'https://example.com/' }).websiteUrl,
    ).toBe('https://example.com/');
  });

  it('treats an empty variable as unset', () => {
    const config = loadConfig({ PORT: '', REDIS_URL: '', SMTP_URL: '', PUBLIC_URL: '', CAPTCHA_TEST_CODE: '' });
    expect(config.port).toBe(8080);
    expect(config.redisUrl).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.captchaTestCode).toBeUndefined();
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', ' '],
    ['PORT', '1e3'],
    ['PORT', '0x50'],
    ['PORT', '80.5'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', './data/mutenet.db'],
    ['REDIS_URL', 'http://x'],
    ['PUBLIC_URL', 'not-a-url'],
    ['PUBLIC_URL', 'ftp://panel.example.com'],
    ['SMTP_URL', 'ftp://x'],
    ['LOG_LEVEL', 'loud'],
    ['NODE_ENV', 'prod'],
    ['TRUST_PROXY', 'yes'],
    ['HOST', ''],
    ['MAIL_FROM', ''],
    ['CAPTCHA_TEST_CODE', 'x'.repeat(17)],
    ['WEBSITE_URL', 'javascript:alert(1)'],
    ['DOWNLOAD_URL_OFFICIAL_ANDROID', 'not a url'],
    ['DOWNLOAD_URL_CLASH_WINDOWS', 'javascript:alert(1)'],
    ['WEB_CONCURRENCY', '0'],
    ['WEB_CONCURRENCY', '65'],
    ['WEB_CONCURRENCY', '-2'],
    ['WEB_CONCURRENCY', '1.5'],
    ['WEB_CONCURRENCY', 'two'],
  ])('refuses %s=%j, naming the variable', (name, value) => {
    const error = configErrorOf({ [name]: value });
    expect(error.message).toMatch(new RegExp(`^\\s*${name}: \\S`, 'm'));
    // Only the offending variable is reported.
    expect(error.message.split('\n').filter((line) => /^\s+[A-Z_]+: /.test(line))).toHaveLength(1);
  });

  it('names every bad variable at once', () => {
    const { message } = configErrorOf({ PORT: 'abc', REDIS_URL: 'http://x', LOG_LEVEL: 'loud' });
    for (const name of ['PORT', 'REDIS_URL', 'LOG_LEVEL']) expect(message).toContain(`${name}:`);
  });

  it('does not repeat a bad value, which may hold a password', () => {
    const { message } = configErrorOf({
      DATABASE_URL: 'mysql://root:hunter2@db/mutenet',
      SMTP_URL: 'ftp://u:hunter3@x',
    });
    expect(message).toContain('DATABASE_URL');
    expect(message).toContain('SMTP_URL');
    expect(message).not.toContain('hunter2');
    expect(message).not.toContain('hunter3');
  });

  it('runs several workers only with Redis, which they share, on PostgreSQL or SQLite', () => {
    const databases: Array<Record<string, string>> = [{}, { DATABASE_URL: 'postgres://db/mutenet' }];
    for (const env of databases) {
      const { message } = configErrorOf({ ...env, WEB_CONCURRENCY: '2' });
      expect(message).toMatch(/^\s*WEB_CONCURRENCY: must be 1 unless REDIS_URL is set: /m);
      expect(message.split('\n').filter((line) => /^\s+[A-Z_]+: /.test(line))).toHaveLength(1);
    }
    const redis = { REDIS_URL: 'redis://cache:6379' };
    expect(loadConfig({ ...redis, WEB_CONCURRENCY: '4', DATABASE_URL: 'postgres://db/mutenet' }).workers).toBe(4);
    expect(loadConfig({ ...redis, WEB_CONCURRENCY: '64' }).workers).toBe(64);
    expect(loadConfig({ WEB_CONCURRENCY: '1' }).workers).toBe(1);
    expect(loadConfig({ WEB_CONCURRENCY: '' }).workers).toBe(1);
  });

  it('refuses CAPTCHA_TEST_CODE in production, and takes it elsewhere', () => {
    const error = configErrorOf({ NODE_ENV: 'production', CAPTCHA_TEST_CODE: 'pass42' });
    expect(error.message).toContain('CAPTCHA_TEST_CODE');
    expect(error.message).toContain('NODE_ENV=production');
    expect(loadConfig({ NODE_ENV: 'test', CAPTCHA_TEST_CODE: 'pass42' }).captchaTestCode).toBe('pass42');
    expect(loadConfig({ CAPTCHA_TEST_CODE: 'pass42' }).captchaTestCode).toBe('pass42');
    expect(loadConfig({ NODE_ENV: 'production' }).captchaTestCode).toBeUndefined();
  });

  describe('payment gateways', () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' };
    const mercadoPago = {
      MERCADOPAGO_ACCESS_TOKEN_BRL: 'APP_USR-1234-5678-abcd',
      MERCADOPAGO_WEBHOOK_SECRET_BRL: 'brl-webhook-secret-0001',
      MERCADOPAGO_ACCESS_TOKEN_CLP: 'TEST-9876-5432',
      MERCADOPAGO_WEBHOOK_SECRET_CLP: 'clp-webhook-secret-0001',
    };
    const btcpay = {
      BTCPAY_URL: 'https://pay.example.com/',
      BTCPAY_STORE_ID: 'Store123',
      BTCPAY_API_KEY: 'a'.repeat(40),
      BTCPAY_WEBHOOK_SECRET: 'btcpay-webhook-secret-1',
    };

    it('offers the sandbox alone outside production and nothing in production, unless configured', () => {
      expect(loadConfig({}).payments).toEqual({ order: ['sandbox'] });
      expect(loadConfig({ NODE_ENV: 'production' }).payments).toEqual({ order: [] });
      expect(loadConfig({ NODE_ENV: 'production', PAYMENT_SANDBOX: 'true' }).payments.order).toEqual(['sandbox']);
      expect(loadConfig({ PAYMENT_SANDBOX: 'false' }).payments.order).toEqual([]);
    });

    it('reads each gateway, in the default order or the operator’s', () => {
      const all = { NODE_ENV: 'production', ...stripe, ...mercadoPago, ...btcpay };
      const config = loadConfig(all).payments;
      expect(config).toEqual({
        order: ['stripe', 'mercadopago', 'btcpay'],
        stripe: {
          secretKey: 'sk_test_abc123',
          webhookSecret: 'whsec_abc123',
          currencies: ['USD', 'BRL', 'MXN', 'COP', 'CLP', 'PEN'],
        },
        mercadopago: {
          accounts: [
            { currency: 'BRL', accessToken: 'APP_USR-1234-5678-abcd', webhookSecret: 'brl-webhook-secret-0001' },
            { currency: 'CLP', accessToken: 'TEST-9876-5432', webhookSecret: 'clp-webhook-secret-0001' },
          ],
        },
        btcpay: {
          url: 'https://pay.example.com',
          storeId: 'Store123',
          apiKey: 'a'.repeat(40),
          webhookSecret: 'btcpay-webhook-secret-1',
          currencies: ['USD', 'BRL', 'MXN', 'COP', 'CLP', 'PEN'],
        },
      });
      const ordered = loadConfig({ ...all, PAYMENT_GATEWAYS: 'btcpay, stripe', STRIPE_CURRENCIES: 'usd,mxn' }).payments;
      expect(ordered.order).toEqual(['btcpay', 'stripe']);
      expect(ordered.stripe?.currencies).toEqual(['USD', 'MXN']);
      expect(loadConfig({ ...stripe, STRIPE_API_URL: 'http://127.0.0.1:12111' }).payments.stripe?.apiUrl).toBe(
        'http://127.0.0.1:12111',
      );
    });

    it('names what is missing or wrong, never the value', () => {
      const half = configErrorOf({ STRIPE_SECRET_KEY: 'sk_live_secretvalue1' }).message;
      expect(half).toMatch(/^\s*STRIPE_WEBHOOK_SECRET: must be set as well, since STRIPE_SECRET_KEY is$/m);
      expect(half).not.toContain('secretvalue1');
      const account = configErrorOf({ MERCADOPAGO_ACCESS_TOKEN_MXN: 'APP_USR-1-2' }).message;
      expect(account).toMatch(/^\s*MERCADOPAGO_WEBHOOK_SECRET_MXN: must be set as well/m);
      const store = configErrorOf({ BTCPAY_URL: 'https://pay.example.com' }).message;
      for (const name of ['BTCPAY_STORE_ID', 'BTCPAY_API_KEY', 'BTCPAY_WEBHOOK_SECRET']) expect(store).toContain(name);
      expect(configErrorOf({ ...stripe, STRIPE_SECRET_KEY: 'pk_live_public' }).message).toMatch(
        /STRIPE_SECRET_KEY: must/,
      );
      expect(configErrorOf({ PAYMENT_GATEWAYS: 'stripe' }).message).toMatch(
        /PAYMENT_GATEWAYS: names stripe, which is not configured/,
      );
      expect(configErrorOf({ PAYMENT_GATEWAYS: 'paypal' }).message).toMatch(/PAYMENT_GATEWAYS: must list gateways/);
      expect(configErrorOf({ ...stripe, STRIPE_CURRENCIES: 'dollars' }).message).toMatch(/STRIPE_CURRENCIES: must be/);
    });
  });

  it('serves the operator console at /admin unless ADMIN_PATH moves it, never onto a path the service uses', () => {
    expect(loadConfig({}).adminPath).toBe('/admin');
    expect(loadConfig({ ADMIN_PATH: '/console-7f3a' }).adminPath).toBe('/console-7f3a');
    for (const taken of ['/person', '/mutenet', '/payment', '/sub', '/api', '/metrics']) {
      expect(configErrorOf({ ADMIN_PATH: taken }).message).toMatch(/ADMIN_PATH: must not be a path the panel/);
    }
    for (const bad of ['admin', '/admin/', '/a/b', '/Admin', '/../x', `/${'a'.repeat(64)}`]) {
      expect(configErrorOf({ ADMIN_PATH: bad }).message, bad).toMatch(/ADMIN_PATH: must be one path segment/);
    }
  });
});
