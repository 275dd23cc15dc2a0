import { GIB } from '../lib/units.js';
import type { TestApp } from './test-app.js';

/** A small catalogue through the catalogue service: two traffic plans and a durational one, in USD and BRL. */
export async function seedCatalog(app: TestApp) {
  const catalog = app.app.catalog;
  await catalog.addCurrency('USD', 'US Dollar', 2, 0);
  await catalog.addCurrency('BRL', 'Real brasileiro', 2, 1);
  await catalog.addCurrency('CLP', 'Peso chileno', 0, 2);
  const names = (en: string) => ({ en, 'pt-BR': `${en} (pt)`, 'zh-Hans': `${en} (zh)` });
  const contents = (en: string) => ({ en, 'pt-BR': `${en} pt`, 'zh-Hans': `${en} zh` });
  const usdBrl = (usd: number, brl: number) => [
    { currency: 'USD', price_minor: usd + 100, real_minor: usd },
    { currency: 'BRL', price_minor: brl + 500, real_minor: brl },
  ];
  const traffic = await catalog.addPlan({
    group: 'traffic',
    names: names('Traffic 100'),
    contents: contents('<p onclick="x()">100 GB<script>alert(1)</script></p>'),
  });
  const traffic30 = (await catalog.addPackage(traffic, {
    label: '100 GB / 30 days',
    days: 30,
    trafficBytes: 100 * GIB,
    prices: usdBrl(499, 2490),
  }))!;
  const other = await catalog.addPlan({
    group: 'traffic',
    names: names('Traffic 500'),
    contents: contents('<b>500</b>'),
  });
  const other90 = (await catalog.addPackage(other, {
    label: '500 GB',
    days: 90,
    trafficBytes: 500 * GIB,
    prices: usdBrl(1599, 7990),
  }))!;
  const durational = await catalog.addPlan({
    group: 'durational',
    names: names('Monthly'),
    contents: contents('<i>m</i>'),
  });
  const monthly = (await catalog.addPackage(durational, {
    label: '30 days',
    days: 30,
    trafficBytes: 200 * GIB,
    prices: usdBrl(599, 2990),
  }))!;
  const quarterly = (await catalog.addPackage(durational, {
    label: '90 days',
    days: 90,
    trafficBytes: 200 * GIB,
    prices: usdBrl(1599, 7990),
  }))!;
  return { traffic, traffic30, other, other90, durational, monthly, quarterly };
}

export type SeededCatalog = Awaited<ReturnType<typeof seedCatalog>>;
