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
    ORDER_TIMEOUT_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 24 * 3600)
      .default(1800),
    PAYMENT_SANDBOX: optional(z.enum(['true', 'false', '1', '0'])),
    PAYMENT_SANDBOX_SECRET: optional(z.string().min(16, 'must be at least 16 characters')),
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
  orderTimeoutMs: number;
  paymentSandbox: boolean;
  paymentSandboxSecret: string | undefined;
  seedDemoCatalog: boolean;
  metricsToken: string | undefined;
};

export class ConfigError extends Error {}

const isTrue = (flag: string) => flag === 'true' || flag === '1';

const DEFAULT_WEB_DIST = path.resolve(import.meta.dirname, '../../../../web/dist');

/** Reads and checks the environment; a bad value stops the start with a message naming the variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
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
    orderTimeoutMs: env.ORDER_TIMEOUT_SECONDS * 1000,
    paymentSandbox: env.PAYMENT_SANDBOX ? isTrue(env.PAYMENT_SANDBOX as string) : env.NODE_ENV !== 'production',
    paymentSandboxSecret: env.PAYMENT_SANDBOX_SECRET as string | undefined,
    seedDemoCatalog: isTrue(env.SEED_DEMO_CATALOG),
    metricsToken: env.METRICS_TOKEN as string | undefined,
  };
}
