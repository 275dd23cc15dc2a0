import type {
  CatalogCurrency,
  CatalogPackage,
  CatalogPlan,
  CatalogPlans,
  Currency,
  Plan,
  PlanGroup,
  Plans,
  RequestLanguage,
} from '@mutenet/contract';
import { type Executor, inTransaction } from '../../db/transaction.js';
import { AppError } from '../../lib/app-error.js';
import { sanitizeOperatorHtml } from '../../lib/html.js';
import { type Localized, pickLanguage } from '../../lib/localized.js';
import { toMajor } from '../../lib/money.js';
import type { AuditHook } from '../audit/audit.service.js';
import {
  CatalogRepository,
  type CurrencyRow,
  type NewPrice,
  type PackageRow,
  type PlanRow,
  type PriceRow,
} from './catalog.repository.js';
import { DEMO_CATALOG } from './demo-catalog.js';

/** What an order is made of: the package as it is now, priced in one currency. */
export type OrderablePackage = {
  planId: number;
  planGroup: PlanGroup;
  planNames: string;
  packageId: number;
  label: string;
  days: number;
  trafficBytes: number;
  currency: string;
  amountMinor: number;
  decimals: number;
};

export type PlanInput = { group: PlanGroup; names: Localized; contents: Localized; sort?: number };
export type PackageInput = { label: string; days: number; trafficBytes: number; sort?: number; prices: NewPrice[] };
export type PricedPackage = PackageRow & { prices: PriceRow[] };

/** The catalogue service on a database, as the plugin and the admin command line build it. */
export function createCatalogService(db: Executor, now: () => number): CatalogService {
  return new CatalogService(db, now);
}

/** What was built from the catalogue, and the catalogue's version it was built from. */
type Kept<T> = { version: number; value: T };

export class CatalogService {
  #plans = new Map<RequestLanguage, Kept<Plans>>();
  #currencies: Kept<Currency[]> | undefined;

  private readonly repository: CatalogRepository;

  constructor(
    private readonly db: Executor,
    private readonly now: () => number,
  ) {
    this.repository = new CatalogRepository(db);
  }

  /**
   * The visible plans with their packages, each priced in the enabled currencies; a plan with no package is left out.
   * Built again only when the catalogue's version moved (any write to its tables raises it), once per language.
   */
  async plans(language: RequestLanguage): Promise<Plans> {
    const version = await this.repository.version();
    const kept = this.#plans.get(language);
    if (kept?.version === version) return kept.value;
    // Read after the version: what is built is at least as new as the version it is kept under.
    const plans = await this.repository.listPlans(true);
    const packages = await this.repository.listPackages(plans.map((plan) => plan.id));
    const prices = await this.repository.listPrices(packages.map((pkg) => pkg.id));
    const result: Plans = { traffic: [], durational: [] };
    for (const plan of plans) {
      const shown = this.#planOf(plan, packages, prices, language);
      if (shown.packages.length) result[plan.plan_group].push(shown);
    }
    this.#plans.set(language, { version, value: result });
    return result;
  }

  #planOf(plan: PlanRow, packages: PackageRow[], prices: PriceRow[], language: RequestLanguage): Plan {
    return {
      pdId: plan.id,
      pdName: pickLanguage(plan.names, language),
      content: sanitizeOperatorHtml(pickLanguage(plan.contents, language)),
      packages: packages
        .filter((pkg) => pkg.plan_id === plan.id)
        .map((pkg) => ({
          pkgId: pkg.id,
          pkgType: pkg.label,
          prices: Object.fromEntries(
            prices
              .filter((price) => price.package_id === pkg.id)
              .map((price) => [
                price.currency,
                { price: toMajor(price.price_minor, price.decimals), real: toMajor(price.real_minor, price.decimals) },
              ]),
          ),
        }))
        .filter((pkg) => Object.keys(pkg.prices).length > 0),
    };
  }

  /** The enabled currencies, kept as the plans are. */
  async currencies(): Promise<Currency[]> {
    const version = await this.repository.version();
    if (this.#currencies?.version === version) return this.#currencies.value;
    const rows = await this.repository.listCurrencies(true);
    const value = rows.map(({ code, name }) => ({ code, name }));
    this.#currencies = { version, value };
    return value;
  }

  /** The package priced in the currency, from the database only; refused when either is not on sale. */
  async orderable(packageId: number, currency: string): Promise<OrderablePackage> {
    const pkg = await this.repository.findPackage(packageId);
    const plan = pkg && (await this.repository.findPlan(pkg.plan_id));
    if (!pkg || !plan?.visible) throw new AppError('PACKAGE_NOT_FOUND');
    const price = (await this.repository.listPrices([pkg.id])).find((row) => row.currency === currency);
    if (!price) throw new AppError('CURRENCY_NOT_AVAILABLE');
    return {
      planId: plan.id,
      planGroup: plan.plan_group,
      planNames: plan.names,
      packageId: pkg.id,
      label: pkg.label,
      days: pkg.days,
      trafficBytes: pkg.traffic_bytes,
      currency,
      amountMinor: price.real_minor,
      decimals: price.decimals,
    };
  }

  // Operator side: the console and the admin command line. Each change is recorded by `audit` in its transaction.

  listAllPlans(): Promise<PlanRow[]> {
    return this.repository.listPlans(false);
  }

  findPlan(id: number): Promise<PlanRow | undefined> {
    return this.repository.findPlan(id);
  }

  /** Every package of the given plans, with all of their prices, enabled currencies or not. */
  async packagesOf(planIds: number[]): Promise<PricedPackage[]> {
    const packages = await this.repository.listPackages(planIds);
    const prices = await this.repository.listPrices(
      packages.map((pkg) => pkg.id),
      false,
    );
    return packages.map((pkg) => ({ ...pkg, prices: prices.filter((price) => price.package_id === pkg.id) }));
  }

  /** A package that is not removed, with all of its prices. */
  async findPackage(id: number): Promise<PricedPackage | undefined> {
    const pkg = await this.repository.findPackage(id);
    return pkg && { ...pkg, prices: await this.repository.listPrices([pkg.id], false) };
  }

  /** Every plan, hidden ones too, by group, each with its packages and all of their prices: the console's view. */
  async catalogPlans(): Promise<CatalogPlans> {
    const plans = await this.repository.listPlans(false);
    const packages = await this.packagesOf(plans.map((plan) => plan.id));
    const result: CatalogPlans = { traffic: [], durational: [] };
    for (const plan of plans) result[plan.plan_group].push(catalogPlanOf(plan, packages));
    return result;
  }

  async catalogPlan(id: number): Promise<CatalogPlan> {
    const plan = await this.repository.findPlan(id);
    if (!plan) throw new AppError('NOT_FOUND');
    return catalogPlanOf(plan, await this.packagesOf([id]));
  }

  async catalogPackage(id: number): Promise<CatalogPackage> {
    const pkg = await this.findPackage(id);
    if (!pkg) throw new AppError('NOT_FOUND');
    return catalogPackageOf(pkg);
  }

  /** Adds a plan, visible; its contents are reduced to formatting. */
  addPlan(input: PlanInput, audit?: AuditHook): Promise<number> {
    const row = {
      plan_group: input.group,
      names: JSON.stringify(input.names),
      contents: JSON.stringify(sanitizeAll(input.contents)),
      sort: input.sort ?? 0,
    };
    return inTransaction(this.db, async (tx) => {
      const id = await this.repository.with(tx).insertPlan(row, this.now());
      await audit?.(tx, { action: 'plan.create', target: { type: 'plan', id }, before: null, after: planValues(row) });
      return id;
    });
  }

  /** Changes what is given of a plan (NOT_FOUND when there is none). */
  async updatePlan(id: number, input: Partial<PlanInput>, audit?: AuditHook): Promise<void> {
    const plan = await this.repository.findPlan(id);
    if (!plan) throw new AppError('NOT_FOUND');
    const changes = {
      ...(input.group ? { plan_group: input.group } : {}),
      ...(input.names ? { names: JSON.stringify(input.names) } : {}),
      ...(input.contents ? { contents: JSON.stringify(sanitizeAll(input.contents)) } : {}),
      ...(input.sort !== undefined ? { sort: input.sort } : {}),
    };
    if (Object.keys(changes).length === 0) return;
    await inTransaction(this.db, async (tx) => {
      await this.repository.with(tx).updatePlan(id, changes);
      const before = Object.fromEntries(Object.keys(changes).map((key) => [key, plan[key as keyof typeof changes]]));
      await audit?.(tx, {
        action: 'plan.update',
        target: { type: 'plan', id },
        before: planValues(before),
        after: planValues(changes),
      });
    });
  }

  /** Lists the plan in the shop or takes it out (NOT_FOUND when there is none). */
  async setPlanVisible(id: number, visible: boolean, audit?: AuditHook): Promise<void> {
    const plan = await this.repository.findPlan(id);
    if (!plan) throw new AppError('NOT_FOUND');
    await inTransaction(this.db, async (tx) => {
      await this.repository.with(tx).updatePlan(id, { visible: visible ? 1 : 0 });
      await audit?.(tx, {
        action: visible ? 'plan.unhide' : 'plan.hide',
        target: { type: 'plan', id },
        before: { visible: plan.visible === 1 },
        after: { visible },
      });
    });
  }

  /**
   * Puts the group's plans in the order given, each of them of the group (NOT_FOUND otherwise); the group's other
   * plans follow, in their order.
   */
  async orderPlans(group: PlanGroup, planIds: number[], audit?: AuditHook): Promise<void> {
    const plans = (await this.repository.listPlans(false)).filter((plan) => plan.plan_group === group);
    const byId = new Map(plans.map((plan) => [plan.id, plan]));
    if (!planIds.every((id) => byId.has(id))) throw new AppError('NOT_FOUND');
    const ordered = [...planIds, ...plans.map((plan) => plan.id).filter((id) => !planIds.includes(id))];
    const moved = ordered.map((id, sort) => ({ id, from: byId.get(id)?.sort, sort })).filter((m) => m.from !== m.sort);
    if (moved.length === 0) return;
    await inTransaction(this.db, async (tx) => {
      for (const { id, sort } of moved) await this.repository.with(tx).updatePlan(id, { sort });
      await audit?.(tx, {
        action: 'plan.reorder',
        target: { type: 'plans', id: group },
        before: { sort: Object.fromEntries(moved.map((m) => [m.id, m.from])) },
        after: { sort: Object.fromEntries(moved.map((m) => [m.id, m.sort])) },
      });
    });
  }

  /**
   * Checks prices in minor units: each currency exists (CURRENCY_NOT_FOUND), at most once (PRICE_CURRENCY_TWICE),
   * and the old price is not below the real one (PRICE_OLD_BELOW_REAL); `data.currency` names the one refused.
   */
  async #checkPrices(prices: NewPrice[]): Promise<void> {
    const seen = new Set<string>();
    for (const price of prices) {
      if (seen.has(price.currency)) throw new AppError('PRICE_CURRENCY_TWICE', { currency: price.currency });
      seen.add(price.currency);
      if (!(await this.repository.findCurrency(price.currency))) {
        throw new AppError('CURRENCY_NOT_FOUND', { currency: price.currency });
      }
      if (price.price_minor < price.real_minor) {
        throw new AppError('PRICE_OLD_BELOW_REAL', { currency: price.currency });
      }
    }
  }

  /** Adds a package to a plan (NOT_FOUND when there is none), priced as `#checkPrices` allows. */
  async addPackage(planId: number, input: PackageInput, audit?: AuditHook): Promise<number> {
    if (!(await this.repository.findPlan(planId))) throw new AppError('NOT_FOUND');
    await this.#checkPrices(input.prices);
    const row = {
      plan_id: planId,
      label: input.label,
      days: input.days,
      traffic_bytes: input.trafficBytes,
      sort: input.sort ?? 0,
    };
    return inTransaction(this.db, async (tx) => {
      const id = await this.repository.with(tx).insertPackage(row, input.prices);
      await audit?.(tx, {
        action: 'package.create',
        target: { type: 'package', id },
        before: null,
        after: { ...row, prices: input.prices },
      });
      return id;
    });
  }

  /** Changes what is given of a package; a price sets that currency's and keeps the others (NOT_FOUND when none). */
  async updatePackage(id: number, input: Partial<PackageInput>, audit?: AuditHook): Promise<void> {
    const pkg = await this.findPackage(id);
    if (!pkg) throw new AppError('NOT_FOUND');
    const prices = input.prices ?? [];
    await this.#checkPrices(prices);
    const changes = {
      ...(input.label !== undefined ? { label: input.label } : {}),
      ...(input.days !== undefined ? { days: input.days } : {}),
      ...(input.trafficBytes !== undefined ? { traffic_bytes: input.trafficBytes } : {}),
      ...(input.sort !== undefined ? { sort: input.sort } : {}),
    };
    await inTransaction(this.db, async (tx) => {
      await this.repository.with(tx).updatePackage(id, changes, prices);
      const before = Object.fromEntries(Object.keys(changes).map((key) => [key, pkg[key as keyof typeof changes]]));
      const pricesBefore = prices.map(({ currency }) => {
        const old = pkg.prices.find((row) => row.currency === currency);
        return { currency, price_minor: old?.price_minor ?? null, real_minor: old?.real_minor ?? null };
      });
      await audit?.(tx, {
        action: 'package.update',
        target: { type: 'package', id },
        before: { ...before, ...(prices.length ? { prices: pricesBefore } : {}) },
        after: { ...changes, ...(prices.length ? { prices } : {}) },
      });
    });
  }

  /** Takes a package off sale; orders that name it keep it (NOT_FOUND when there is none on sale). */
  async removePackage(id: number, audit?: AuditHook): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      if (!(await this.repository.with(tx).removePackage(id))) throw new AppError('NOT_FOUND');
      await audit?.(tx, {
        action: 'package.remove',
        target: { type: 'package', id },
        before: { removed: false },
        after: { removed: true },
      });
    });
  }

  listAllCurrencies(): Promise<CurrencyRow[]> {
    return this.repository.listCurrencies(false);
  }

  findCurrency(code: string): Promise<CurrencyRow | undefined> {
    return this.repository.findCurrency(code);
  }

  async catalogCurrencies(): Promise<CatalogCurrency[]> {
    return (await this.repository.listCurrencies(false)).map(catalogCurrencyOf);
  }

  async catalogCurrency(code: string): Promise<CatalogCurrency> {
    const row = await this.repository.findCurrency(code);
    if (!row) throw new AppError('NOT_FOUND');
    return catalogCurrencyOf(row);
  }

  /** Adds a currency, enabled (CURRENCY_EXISTS when the code is taken). */
  async addCurrency(code: string, name: string, decimals = 2, sort = 0, audit?: AuditHook): Promise<void> {
    const row = { code, name, decimals, sort };
    await inTransaction(this.db, async (tx) => {
      if (!(await this.repository.with(tx).insertCurrency(row))) throw new AppError('CURRENCY_EXISTS');
      await audit?.(tx, {
        action: 'currency.create',
        target: { type: 'currency', id: code },
        before: null,
        after: row,
      });
    });
  }

  /** Offers the currency or stops offering it; NOT_FOUND (CURRENCY_NOT_FOUND) when there is no such currency. */
  async setCurrencyEnabled(code: string, enabled: boolean, audit?: AuditHook): Promise<CatalogCurrency> {
    return inTransaction(this.db, async (tx) => {
      const repository = this.repository.with(tx);
      const before = await repository.findCurrency(code);
      if (!before) throw new AppError('CURRENCY_NOT_FOUND');
      await repository.setCurrencyEnabled(code, enabled);
      await audit?.(tx, {
        action: enabled ? 'currency.enable' : 'currency.disable',
        target: { type: 'currency', id: code },
        before: { enabled: before.enabled === 1 },
        after: { enabled },
      });
      return catalogCurrencyOf({ ...before, enabled: enabled ? 1 : 0 });
    });
  }

  /** Fills an empty catalogue with the demo plans; true when it did. */
  async seedDemo(): Promise<boolean> {
    if (!(await this.repository.isEmpty())) return false;
    for (const currency of DEMO_CATALOG.currencies) {
      if (!(await this.repository.findCurrency(currency.code))) {
        await this.addCurrency(currency.code, currency.name, currency.decimals, currency.sort);
      }
    }
    for (const plan of DEMO_CATALOG.plans) {
      const planId = await this.addPlan(plan);
      for (const pkg of plan.packages) await this.addPackage(planId, pkg);
    }
    return true;
  }
}

/** A plan's stored columns as the audit log shows them: texts as objects, not JSON. */
function planValues(values: Partial<Record<'plan_group' | 'names' | 'contents' | 'sort', unknown>>) {
  const { names, contents, ...rest } = values;
  return {
    ...rest,
    ...(typeof names === 'string' ? { names: JSON.parse(names) } : {}),
    ...(typeof contents === 'string' ? { contents: JSON.parse(contents) } : {}),
  };
}

const catalogCurrencyOf = (row: CurrencyRow): CatalogCurrency => ({ ...row, enabled: row.enabled === 1 });

function catalogPackageOf(pkg: PricedPackage): CatalogPackage {
  return {
    id: pkg.id,
    planId: pkg.plan_id,
    label: pkg.label,
    days: pkg.days,
    trafficBytes: Number(pkg.traffic_bytes),
    sort: pkg.sort,
    prices: pkg.prices.map((price) => ({
      currency: price.currency,
      price: price.price_minor,
      real: price.real_minor,
      decimals: price.decimals,
    })),
  };
}

function catalogPlanOf(plan: PlanRow, packages: PricedPackage[]): CatalogPlan {
  return {
    id: plan.id,
    group: plan.plan_group,
    names: JSON.parse(plan.names) as Localized,
    contents: JSON.parse(plan.contents) as Localized,
    visible: plan.visible === 1,
    sort: plan.sort,
    packages: packages.filter((pkg) => pkg.plan_id === plan.id).map(catalogPackageOf),
  };
}

function sanitizeAll(texts: Localized): Localized {
  return Object.fromEntries(
    Object.entries(texts).map(([lang, html]) => [lang, sanitizeOperatorHtml(html)]),
  ) as Localized;
}
