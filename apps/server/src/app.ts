import { CLIENT_APPS } from '@mutenet/contract';
import Fastify, { type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { loggableUrl } from './lib/log-url.js';
import { requestIdOf } from './lib/request-id.js';
import auditPlugin from './modules/audit/audit.plugin.js';
import auditRoutes from './modules/audit/audit.routes.js';
import authPlugin from './modules/auth/auth.plugin.js';
import catalogConsoleRoutes from './modules/catalog/catalog.console-routes.js';
import catalogPlugin from './modules/catalog/catalog.plugin.js';
import customersConsoleRoutes from './modules/customers/customers.console-routes.js';
import feedPlugin from './modules/feed/feed.plugin.js';
import nodeApiPlugin from './modules/node-api/node-api.plugin.js';
import nodesConsoleRoutes from './modules/nodes/nodes.console-routes.js';
import nodesPlugin from './modules/nodes/nodes.plugin.js';
import noticeConsoleRoutes from './modules/notice/notice.console-routes.js';
import noticePlugin from './modules/notice/notice.plugin.js';
import operatorsPlugin from './modules/operators/operators.plugin.js';
import ordersConsoleRoutes from './modules/orders/orders.console-routes.js';
import ordersPlugin from './modules/orders/orders.plugin.js';
import overviewConsoleRoutes from './modules/overview/overview.console-routes.js';
import paymentsPlugin from './modules/payments/payments.plugin.js';
import subscriptionPlugin from './modules/subscription/subscription.plugin.js';
import captchaPlugin from './plugins/app/captcha.js';
import dbPlugin from './plugins/app/db.js';
import errorsPlugin, { frameworkErrorSender } from './plugins/app/errors.js';
import i18nPlugin from './plugins/app/i18n.js';
import jobsPlugin from './plugins/app/jobs.js';
import mailPlugin from './plugins/app/mail.js';
import metricsPlugin from './plugins/app/metrics.js';
import storePlugin from './plugins/app/store.js';
import webPlugin from './plugins/app/web.js';
import type { Config } from './plugins/external/env.js';
import httpPlugin from './plugins/external/http.js';
import rateLimitPlugin from './plugins/external/rate-limit.js';

export type AppOptions = {
  config: Config;
  /** The clock of the app's rules and of its in-memory store; tests move it to expire codes. */
  now?: () => number;
  /** PostgreSQL schema to work in; tests give each run its own. */
  searchPath?: string;
  /** Redis key prefix; tests give each run its own. */
  redisKeyPrefix?: string;
  /** Logger options over the defaults (level, redaction, serializers): tests send the lines to a stream. */
  logger?: Exclude<FastifyServerOptions['logger'], boolean>;
};

// Never logged: tokens, cookies and anything a client authenticates with.
const REDACTED = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers.authorization',
  'res.headers["set-cookie"]',
];

/** The whole server as one plugin tree; `server.ts` only listens, and tests build this. */
export async function buildApp({ config, now = Date.now, searchPath, redisKeyPrefix, logger }: AppOptions) {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: REDACTED,
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: loggableUrl(request.url),
          remoteAddress: request.ip,
        }),
      },
      ...(logger && typeof logger === 'object' ? logger : {}),
    },
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    return503OnClosing: true,
    frameworkErrors: frameworkErrorSender(config.trustProxy),
    forceCloseConnections: 'idle',
    requestIdHeader: false,
    genReqId: (request) => requestIdOf(request.headers),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(i18nPlugin);
  await app.register(errorsPlugin);
  await app.register(httpPlugin);
  await app.register(metricsPlugin, { token: config.metricsToken });
  await app.register(storePlugin, { redisUrl: config.redisUrl, now, ...(redisKeyPrefix ? { redisKeyPrefix } : {}) });
  await app.register(rateLimitPlugin);
  await app.register(dbPlugin, {
    databaseUrl: config.databaseUrl,
    queryTimeoutMs: config.databaseQueryTimeoutMs,
    searchPath,
  });
  await app.register(mailPlugin, { smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: config.mailOutboxDir });
  await app.register(captchaPlugin, { testCode: config.captchaTestCode });
  await app.register(jobsPlugin);

  await app.register(authPlugin, { now, publicUrl: config.publicUrl });
  await app.register(auditPlugin, { now });
  await app.register(operatorsPlugin, { now, adminPath: config.adminPath, publicUrl: config.publicUrl });
  await app.register(catalogPlugin, { now, seedDemo: config.seedDemoCatalog });
  await app.register(subscriptionPlugin, { now, publicUrl: config.publicUrl });
  await app.register(ordersPlugin, { now, timeoutMs: config.orderTimeoutMs });
  await app.register(paymentsPlugin, {
    now,
    publicUrl: config.publicUrl,
    production: config.env === 'production',
    config: config.payments,
  });
  await app.register(noticePlugin, { now });
  await app.register(nodesPlugin, { now });
  await app.register(nodeApiPlugin, { now });
  await app.register(feedPlugin, { title: config.siteName, publicUrl: config.publicUrl });

  // The console's API, behind the operators' guard, on the modules' services.
  for (const routes of [
    overviewConsoleRoutes,
    customersConsoleRoutes,
    catalogConsoleRoutes,
    ordersConsoleRoutes,
    noticeConsoleRoutes,
    auditRoutes,
  ]) {
    await app.register(routes, { prefix: config.adminPath });
  }
  await app.register(nodesConsoleRoutes, { prefix: config.adminPath, publicUrl: config.publicUrl });

  await app.register(webPlugin, {
    distDir: config.webDistDir,
    consoleDistDir: config.consoleDistDir,
    adminPath: config.adminPath,
    runtimeConfig: {
      version: config.appVersion,
      websiteUrl: config.websiteUrl,
      downloads: Object.fromEntries(CLIENT_APPS.map((app) => [app, config.downloads[app]])) as Config['downloads'],
    },
  });
  return app;
}
