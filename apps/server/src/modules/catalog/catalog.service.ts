import type { Currency, Plan, PlanGroup, Plans, RequestLanguage } from '@mutenet/contract';
import type { Executor } from '../../db/transaction.js';
import { AppError } from '../../lib/app-error.js';
import { sanitizeOperatorHtml } from '../../lib/html.js';
import { type Localized, pickLanguage } from '../../lib/localized.js';
import { toMajor } from '../../lib/money.js';
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
  return new CatalogService(new CatalogRepository(db), now);
}

/** What was built from the catalogue, and the catalogue's version it was built from. */
type Kept<T> = { version: number; value: T };

export class CatalogService {
  #plans = new Map<RequestLanguage, Kept<Plans>>();
  #currencies: Kept<Currency[]> | undefined;

  constructor(
    private readonly repository: CatalogRepository,
    private readonly now: () => number,
  ) {}

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

  // Operator side (the admin command line).

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

  addPlan(input: PlanInput): Promise<number> {
    return this.repository.insertPlan(
      {
        plan_group: input.group,
        names: JSON.stringify(input.names),
        contents: JSON.stringify(sanitizeAll(input.contents)),
        sort: input.sort ?? 0,
      },
      this.now(),
    );
  }

  updatePlan(id: number, input: Partial<PlanInput>): Promise<boolean> {
    return this.repository.updatePlan(id, {
      ...(input.group ? { plan_group: input.group } : {}),
      ...(input.names ? { names: JSON.stringify(input.names) } : {}),
      ...(input.contents ? { contents: JSON.stringify(sanitizeAll(input.contents)) } : {}),
      ...(input.sort !== undefined ? { sort: input.sort } : {}),
    });
  }

  setPlanVisible(id: number, visible: boolean): Promise<boolean> {
    return this.repository.updatePlan(id, { visible: visible ? 1 : 0 });
  }

  async addPackage(planId: number, input: PackageInput): Promise<number | null> {
    if (!(await this.repository.findPlan(planId))) return null;
    return this.repository.insertPackage(
      {
        plan_id: planId,
        label: input.label,
        days: input.days,
        traffic_bytes: input.trafficBytes,
        sort: input.sort ?? 0,
      },
      input.prices,
    );
  }

  updatePackage(id: number, input: Partial<PackageInput>): Promise<boolean> {
    return this.repository.updatePackage(
      id,
      {
        ...(input.label !== undefined ? { label: input.label } : {}),
        ...(input.days !== undefined ? { days: input.days } : {}),
        ...(input.trafficBytes !== undefined ? { traffic_bytes: input.trafficBytes } : {}),
        ...(input.sort !== undefined ? { sort: input.sort } : {}),
      },
      input.prices ?? [],
    );
  }

  removePackage(id: number): Promise<boolean> {
    return this.repository.removePackage(id);
  }

  listAllCurrencies(): Promise<CurrencyRow[]> {
    return this.repository.listCurrencies(false);
  }

  findCurrency(code: string): Promise<CurrencyRow | undefined> {
    return this.repository.findCurrency(code);
  }

  addCurrency(code: string, name: string, decimals = 2, sort = 0): Promise<boolean> {
    return this.repository.insertCurrency({ code, name, decimals, sort });
  }

  setCurrencyEnabled(code: string, enabled: boolean): Promise<boolean> {
    return this.repository.setCurrencyEnabled(code, enabled);
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

function sanitizeAll(texts: Localized): Localized {
  return Object.fromEntries(
    Object.entries(texts).map(([lang, html]) => [lang, sanitizeOperatorHtml(html)]),
  ) as Localized;
}
