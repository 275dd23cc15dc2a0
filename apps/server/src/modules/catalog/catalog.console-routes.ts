import {
  adminAddCurrency,
  adminAddPackage,
  adminAddPlan,
  adminGetCurrencies,
  adminGetPlans,
  adminOrderPlans,
  adminRemovePackage,
  adminSetCurrencyEnabled,
  adminSetPlanVisible,
  adminUpdatePackage,
  adminUpdatePlan,
} from '@mutenet/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../lib/envelope.js';
import { routeOf } from '../../lib/route.js';
import type { NewPrice } from './catalog.repository.js';

/** The contract's prices (minor units) as the catalogue keeps them. */
const pricesOf = (prices: { currency: string; price: number; real: number }[]): NewPrice[] =>
  prices.map(({ currency, price, real }) => ({ currency, price_minor: price, real_minor: real }));

/** The console's catalog routes, under ADMIN_PATH. */
export default async function catalogConsoleRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const read = { onRequest: fastify.operatorCan('catalog.read') };
  const write = { onRequest: fastify.operatorCan('catalog.write') };
  const { catalog } = fastify;

  app.route({
    ...routeOf(adminGetPlans),
    ...read,
    handler: async (request) => ok(request, await catalog.catalogPlans()),
  });

  app.route({
    ...routeOf(adminAddPlan),
    ...write,
    handler: async (request) => {
      const id = await catalog.addPlan(request.body, request.audit);
      return ok(request, await catalog.catalogPlan(id));
    },
  });

  app.route({
    ...routeOf(adminUpdatePlan),
    ...write,
    handler: async (request) => {
      await catalog.updatePlan(request.params.id, request.body, request.audit);
      return ok(request, await catalog.catalogPlan(request.params.id));
    },
  });

  app.route({
    ...routeOf(adminSetPlanVisible),
    ...write,
    handler: async (request) => {
      await catalog.setPlanVisible(request.params.id, request.body.visible, request.audit);
      return ok(request, await catalog.catalogPlan(request.params.id));
    },
  });

  app.route({
    ...routeOf(adminOrderPlans),
    ...write,
    handler: async (request) => {
      await catalog.orderPlans(request.body.group, request.body.planIds, request.audit);
      return ok(request, await catalog.catalogPlans());
    },
  });

  app.route({
    ...routeOf(adminAddPackage),
    ...write,
    handler: async (request) => {
      const { prices, ...fields } = request.body;
      const id = await catalog.addPackage(request.params.id, { ...fields, prices: pricesOf(prices) }, request.audit);
      return ok(request, await catalog.catalogPackage(id));
    },
  });

  app.route({
    ...routeOf(adminUpdatePackage),
    ...write,
    handler: async (request) => {
      const { prices, ...fields } = request.body;
      await catalog.updatePackage(
        request.params.id,
        { ...fields, ...(prices ? { prices: pricesOf(prices) } : {}) },
        request.audit,
      );
      return ok(request, await catalog.catalogPackage(request.params.id));
    },
  });

  app.route({
    ...routeOf(adminRemovePackage),
    ...write,
    handler: async (request) => {
      await catalog.removePackage(request.params.id, request.audit);
      return ok(request, { id: request.params.id });
    },
  });

  app.route({
    ...routeOf(adminGetCurrencies),
    ...read,
    handler: async (request) => ok(request, { currencies: await catalog.catalogCurrencies() }),
  });

  app.route({
    ...routeOf(adminAddCurrency),
    ...write,
    handler: async (request) => {
      const { code, name, decimals, sort } = request.body;
      await catalog.addCurrency(code, name, decimals, sort, request.audit);
      return ok(request, await catalog.catalogCurrency(code));
    },
  });

  app.route({
    ...routeOf(adminSetCurrencyEnabled),
    ...write,
    handler: async (request) =>
      ok(request, await catalog.setCurrencyEnabled(request.params.code, request.body.enabled, request.audit)),
  });
}
