import { GIB } from '../../lib/units.js';
import type { PlanInput } from '../../modules/catalog/catalog.service.js';
import type { TestApp } from '../test-app.js';

/** Packages made so far, per app and currency. */
const made = new WeakMap<TestApp, Map<string, Promise<number>>>();

/**
 * A 30-day package of a `group` plan priced in a test currency of its own (`currency`, 2 decimals), made once per app:
 * each round's customers buy it. An area's own currency keeps its orders apart from other areas'.
 */
export function packageOnSale(
  app: TestApp,
  { currency, group, price }: { currency: string; group: PlanInput['group']; price: number },
) {
  const packages = made.get(app) ?? new Map<string, Promise<number>>();
  made.set(app, packages);
  let pkgId = packages.get(currency);
  if (!pkgId) {
    pkgId = (async () => {
      const { catalog } = app.app;
      await catalog.addCurrency(currency, `${currency} test coin`, 2, 9);
      const planId = await catalog.addPlan({
        group,
        names: { en: currency, 'pt-BR': currency, 'zh-Hans': currency },
        contents: { en: '', 'pt-BR': '', 'zh-Hans': '' },
      });
      const id = await catalog.addPackage(planId, {
        label: '30 days',
        days: 30,
        trafficBytes: 10 * GIB,
        prices: [{ currency, price_minor: price, real_minor: price }],
      });
      return id!;
    })();
    packages.set(currency, pkgId);
  }
  return pkgId;
}
