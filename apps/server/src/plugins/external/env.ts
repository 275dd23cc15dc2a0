import path from 'node:path';
import { CLIENT_APPS, type ClientApp } from '@mutenet/contract';
import { z } from 'zod';

const DOWNLOAD_ENV: Record<ClientApp, string> = {
  officialAndroid: 'DOWNLOAD_URL_OFFICIAL_ANDROID',
  v2rayNG: 'DOWNLOAD_URL_V2RAYNG',
  clashWindows: 'DOWNLOAD_URL_CLASH_WINDOWS',
  shadowrocket: 'DOWNLOAD_URL_SHADOWROCKET',
  foxray: 'DOWNLOAD_URL_FOXRAY',
};

const DEFAULT_DOWNLOADS: Record<ClientApp, string> = {
  officialAndroid: 'https://github.com/2dust/v2rayNG/releases',
  v2rayNG: 'https://github.com/2dust/v2rayNG/releases',
  clashWindows: 'https://github.com/clash-verge-rev/clash-verge-rev/releases',
  shadowrocket: 'https://apps.apple.com/app/shadowrocket/id932747118',
  foxray: 'https://apps.apple.com/app/foxray/id6448898396',
};

const url = z.url({ protocol: /^https?$/ });
// Digits only: a coerced '' or ' ' would be port 0 (a random port), and '1e3' or '0x50' are typos, not ports.
const PORT_RULE = 'must be a port number from 0 to 65535';
const port = z
  .string()
  .regex(/^\d{1,5}$/, PORT_RULE)
  .transform(Number)
  .pipe(z.number().max(65535, PORT_RULE));
const WORKERS_RULE = 'must be a number of worker processes from 1 to 64';
// Aborting, so that a bad count is reported once rather than also as "more than 1 without Redis".
const workers = z
  .string()
  .regex(/^\d{1,2}$/, { message: WORKERS_RULE, abort: true })
  .transform(Number)
  .pipe(z.number().min(1, { message: WORKERS_RULE, abort: true }).max(64, { message: WORKERS_RULE, abort: true }));
const unsetWhenEmpty = (v: unknown) => (v === '' ? undefined : v);
const optional = (schema: z.ZodType) =>
  z.preprocess(unsetWhenEmpty, schema.optional()) as unknown as z.ZodOptional<typeof schema>;

/** First path segments the rest of the service answers at: the console may not take one. */
const RESERVED_PATHS = ['/person', '/mutenet', '/payment', '/shopDetails', '/sub', '/api', '/metrics', '/healthz'];

/** The currencies the gateways serve; an operator narrows a gateway's list to what the account has. */
const PAYMENT_CURRENCIES = ['USD', 'BRL', 'MXN', 'COP', 'CLP', 'PEN'] as const;
/** A Mercado Pago account takes only its own country's currency: one set of credentials each. */
export const MERCADOPAGO_CURRENCIES = ['BRL', 'MXN', 'COP', 'CLP', 'PEN'] as const;
export const PAYMENT_GATEWAY_IDS = ['stripe', 'mercadopago', 'btcpay', 'sandbox'] as const;
export type PaymentGatewayId = (typeof PAYMENT_GATEWAY_IDS)[number];

const listOf = <T extends string>(values: readonly T[], rule: string) =>
  z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(values as [T, ...T[]], rule)).min(1, rule));
const currencyList = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((item) => item.trim().toUpperCase())
      .filter(Boolean),
  )
  .pipe(
    z.array(z.string().regex(/^[A-Z]{3}$/, 'must be currency codes such as USD,BRL')).min(1, 'must name a currency'),
  );
const gatewayList = listOf(PAYMENT_GATEWAY_IDS, `must list gateways among ${PAYMENT_GATEWAY_IDS.join(', ')}`);

/** Variables that must be set together: the first one set asks for the rest. */
const TOGETHER: readonly (readonly string[])[] = [
  ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'],
  ...MERCADOPAGO_CURRENCIES.map((currency) => [
    `MERCADOPAGO_ACCESS_TOKEN_${currency}`,
    `MERCADOPAGO_WEBHOOK_SECRET_${currency}`,
  ]),
  ['BTCPAY_URL', 'BTCPAY_STORE_ID', 'BTCPAY_API_KEY', 'BTCPAY_WEBHOOK_SECRET'],
];

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.preprocess(unsetWhenEmpty, port.default(8080)),
    HOST: z.string().min(1).default('0.0.0.0'),
    WEB_CONCURRENCY: z.preprocess(unsetWhenEmpty, workers.default(1)),
    DATABASE_URL: z
      .string()
      .regex(/^(sqlite:|postgres(ql)?:\/\/)/, 'must start with sqlite: or postgres://')
      .default('sqlite:./data/mutenet.db'),
    DATABASE_QUERY_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
    REDIS_URL: optional(z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')),
    PUBLIC_URL: optional(url),
    SMTP_URL: optional(z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')),
    MAIL_FROM: z.string().min(3).default('Mutenet <no-reply@localhost>'),
    MAIL_OUTBOX_DIR: z.string().min(1).default('./data/outbox'),
    CAPTCHA_TEST_CODE: optional(z.string().min(1).max(16)),
    APP_VERSION: z.string().default('1.0.0'),
    SITE_NAME: z.string().min(1).max(64).default('Mutenet'),
    WEBSITE_URL: optional(url),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: z.enum(['true', 'false', '1', '0']).default('false'),
    WEB_DIST_DIR: optional(z.string()),
    CONSOLE_DIST_DIR: optional(z.string()),
    ORDER_TIMEOUT_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 24 * 3600)
      .default(1800),
    ADMIN_PATH: z
      .string()
      .regex(/^\/[a-z0-9][a-z0-9_-]{0,62}$/, 'must be one path segment such as /admin or /console-7f3a')
      .refine((value) => !RESERVED_PATHS.includes(value), 'must not be a path the panel, the feed or the APIs use')
      .default('/admin'),
    PAYMENT_GATEWAYS: optional(gatewayList),
    PAYMENT_SANDBOX: optional(z.enum(['true', 'false', '1', '0'])),
    PAYMENT_SANDBOX_SECRET: optional(z.string().min(16, 'must be at least 16 characters')),
    STRIPE_SECRET_KEY: optional(
      z.string().regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a secret key, sk_live_… or sk_test_…'),
    ),
    STRIPE_WEBHOOK_SECRET: optional(z.string().regex(/^whsec_\w+$/, 'must be a webhook signing secret, whsec_…')),
    STRIPE_CURRENCIES: z.preprocess(unsetWhenEmpty, currencyList.default([...PAYMENT_CURRENCIES])),
    STRIPE_API_URL: optional(url),
    ...Object.fromEntries(
      MERCADOPAGO_CURRENCIES.flatMap((currency) => [
        [
          `MERCADOPAGO_ACCESS_TOKEN_${currency}`,
          optional(z.string().regex(/^(APP_USR|TEST)-[\w-]+$/, 'must be an access token, APP_USR-… or TEST-…')),
        ],
        [`MERCADOPAGO_WEBHOOK_SECRET_${currency}`, optional(z.string().min(16, 'must be at least 16 characters'))],
      ]),
    ),
    MERCADOPAGO_API_URL: optional(url),
    BTCPAY_URL: optional(url),
    BTCPAY_STORE_ID: optional(z.string().regex(/^\w{1,64}$/, 'must be the store id from the store settings')),
    BTCPAY_API_KEY: optional(z.string().regex(/^\w{16,128}$/, 'must be a Greenfield API key')),
    BTCPAY_WEBHOOK_SECRET: optional(z.string().min(16, 'must be at least 16 characters')),
    BTCPAY_CURRENCIES: z.preprocess(unsetWhenEmpty, currencyList.default([...PAYMENT_CURRENCIES])),
    METRICS_TOKEN: optional(z.string().min(16, 'must be at least 16 characters')),
    SEED_DEMO_CATALOG: z.enum(['true', 'false', '1', '0']).default('false'),
    DOWNLOAD_URL_OFFICIAL_ANDROID: optional(url),
    DOWNLOAD_URL_V2RAYNG: optional(url),
    DOWNLOAD_URL_CLASH_WINDOWS: optional(url),
    DOWNLOAD_URL_SHADOWROCKET: optional(url),
    DOWNLOAD_URL_FOXRAY: optional(url),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && env.CAPTCHA_TEST_CODE) {
      ctx.addIssue({
        code: 'custom',
        path: ['CAPTCHA_TEST_CODE'],
        message: 'must not be set when NODE_ENV=production: it would let anyone pass every captcha',
      });
    }
    const values = env as Record<string, unknown>;
    for (const group of TOGETHER) {
      const set = group.filter((name) => values[name] !== undefined);
      if (set.length === 0 || set.length === group.length) continue;
      for (const name of group.filter((name) => values[name] === undefined)) {
        ctx.addIssue({ code: 'custom', path: [name], message: `must be set as well, since ${set[0]} is` });
      }
    }
    for (const id of (env.PAYMENT_GATEWAYS as PaymentGatewayId[] | undefined) ?? []) {
      if (!gatewayConfigured(id, values)) {
        ctx.addIssue({
          code: 'custom',
          path: ['PAYMENT_GATEWAYS'],
          message: `names ${id}, which is not configured (see docs/payments.md)`,
        });
      }
    }
    if (env.WEB_CONCURRENCY > 1 && !env.REDIS_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['WEB_CONCURRENCY'],
        message:
          'must be 1 unless REDIS_URL is set: without Redis each worker process would keep captchas, email codes ' +
          'and rate-limit counters of its own',
      });
    }
  });

export type StripeConfig = { secretKey: string; webhookSecret: string; currencies: string[]; apiUrl?: string };
export type MercadoPagoAccount = { currency: string; accessToken: string; webhookSecret: string };
export type MercadoPagoConfig = { accounts: MercadoPagoAccount[]; apiUrl?: string };
export type BtcpayConfig = {
  url: string;
  storeId: string;
  apiKey: string;
  webhookSecret: string;
  currencies: string[];
};

/** The payment gateways as configured; those left unset are absent. */
export type PaymentsConfig = {
  /** The gateways the checkout offers, in the operator's order. */
  order: PaymentGatewayId[];
  sandboxSecret?: string;
  stripe?: StripeConfig;
  mercadopago?: MercadoPagoConfig;
  btcpay?: BtcpayConfig;
};

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** Worker processes serving on the one port (`WEB_CONCURRENCY`); 1 runs no cluster. */
  workers: number;
  databaseUrl: string;
  /** PostgreSQL: a query with no answer in this time closes its connection and fails (503). */
  databaseQueryTimeoutMs: number;
  redisUrl: string | undefined;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  mailOutboxDir: string;
  captchaTestCode: string | undefined;
  appVersion: string;
  siteName: string;
  websiteUrl: string;
  downloads: Record<ClientApp, string>;
  logLevel: string;
  trustProxy: boolean;
  webDistDir: string;
  /** The operator console's build (`vite.console.config.ts`), served under `adminPath`. */
  consoleDistDir: string;
  orderTimeoutMs: number;
  payments: PaymentsConfig;
  /** Where the operator console and its API are served (`ADMIN_PATH`, one segment, no trailing slash). */
  adminPath: string;
  seedDemoCatalog: boolean;
  metricsToken: string | undefined;
};

export class ConfigError extends Error {}

const isTrue = (flag: string) => flag === 'true' || flag === '1';

const DEFAULT_WEB_DIST = path.resolve(import.meta.dirname, '../../../../web/dist');
const DEFAULT_CONSOLE_DIST = path.resolve(import.meta.dirname, '../../../../web/console/dist');

function gatewayConfigured(id: PaymentGatewayId, env: Record<string, unknown>): boolean {
  switch (id) {
    case 'stripe':
      return env.STRIPE_SECRET_KEY !== undefined;
    case 'mercadopago':
      return MERCADOPAGO_CURRENCIES.some((currency) => env[`MERCADOPAGO_ACCESS_TOKEN_${currency}`] !== undefined);
    case 'btcpay':
      return env.BTCPAY_URL !== undefined;
    case 'sandbox':
      return env.PAYMENT_SANDBOX !== undefined ? isTrue(env.PAYMENT_SANDBOX as string) : env.NODE_ENV !== 'production';
  }
}

function paymentsConfig(env: Record<string, unknown>, nodeEnv: string): PaymentsConfig {
  const text = (name: string) => env[name] as string;
  const configured = PAYMENT_GATEWAY_IDS.filter((id) => gatewayConfigured(id, { ...env, NODE_ENV: nodeEnv }));
  const payments: PaymentsConfig = { order: (env.PAYMENT_GATEWAYS as PaymentGatewayId[] | undefined) ?? configured };
  if (env.PAYMENT_SANDBOX_SECRET !== undefined) payments.sandboxSecret = text('PAYMENT_SANDBOX_SECRET');
  if (configured.includes('stripe')) {
    payments.stripe = {
      secretKey: text('STRIPE_SECRET_KEY'),
      webhookSecret: text('STRIPE_WEBHOOK_SECRET'),
      currencies: env.STRIPE_CURRENCIES as string[],
      ...(env.STRIPE_API_URL !== undefined ? { apiUrl: text('STRIPE_API_URL') } : {}),
    };
  }
  if (configured.includes('mercadopago')) {
    payments.mercadopago = {
      accounts: MERCADOPAGO_CURRENCIES.filter((currency) => env[`MERCADOPAGO_ACCESS_TOKEN_${currency}`]).map(
        (currency) => ({
          currency,
          accessToken: text(`MERCADOPAGO_ACCESS_TOKEN_${currency}`),
          webhookSecret: text(`MERCADOPAGO_WEBHOOK_SECRET_${currency}`),
        }),
      ),
      ...(env.MERCADOPAGO_API_URL !== undefined ? { apiUrl: text('MERCADOPAGO_API_URL') } : {}),
    };
  }
  if (configured.includes('btcpay')) {
    payments.btcpay = {
      url: text('BTCPAY_URL').replace(/\/+$/, ''),
      storeId: text('BTCPAY_STORE_ID'),
      apiKey: text('BTCPAY_API_KEY'),
      webhookSecret: text('BTCPAY_WEBHOOK_SECRET'),
      currencies: env.BTCPAY_CURRENCIES as string[],
    };
  }
  return payments;
}

/** Reads and checks the environment; a bad value stops the start with a message naming the variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${String(issue.path[0])}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const publicUrl = ((env.PUBLIC_URL as string | undefined) ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  const downloads = Object.fromEntries(
    CLIENT_APPS.map((app) => [app, (env[DOWNLOAD_ENV[app] as keyof typeof env] as string) ?? DEFAULT_DOWNLOADS[app]]),
  ) as Record<ClientApp, string>;
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    workers: env.WEB_CONCURRENCY,
    databaseUrl: env.DATABASE_URL,
    databaseQueryTimeoutMs: env.DATABASE_QUERY_TIMEOUT_SECONDS * 1000,
    redisUrl: env.REDIS_URL as string | undefined,
    publicUrl,
    smtpUrl: env.SMTP_URL as string | undefined,
    mailFrom: env.MAIL_FROM,
    mailOutboxDir: path.resolve(env.MAIL_OUTBOX_DIR),
    captchaTestCode: env.CAPTCHA_TEST_CODE as string | undefined,
    appVersion: env.APP_VERSION,
    siteName: env.SITE_NAME,
    // Unset, the header's website button leads to this panel, where it is served.
    websiteUrl: (env.WEBSITE_URL as string | undefined) ?? `${publicUrl}/person/`,
    downloads,
    logLevel: env.LOG_LEVEL,
    trustProxy: isTrue(env.TRUST_PROXY),
    webDistDir: path.resolve((env.WEB_DIST_DIR as string | undefined) ?? DEFAULT_WEB_DIST),
    consoleDistDir: path.resolve((env.CONSOLE_DIST_DIR as string | undefined) ?? DEFAULT_CONSOLE_DIST),
    orderTimeoutMs: env.ORDER_TIMEOUT_SECONDS * 1000,
    payments: paymentsConfig(env as Record<string, unknown>, env.NODE_ENV),
    adminPath: env.ADMIN_PATH,
    seedDemoCatalog: isTrue(env.SEED_DEMO_CATALOG),
    metricsToken: env.METRICS_TOKEN as string | undefined,
  };
}
