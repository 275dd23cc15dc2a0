import { isUniqueViolation } from '../../db/errors.js';
import type { Executor } from '../../db/transaction.js';

export type PlanRow = {
  id: number;
  plan_group: 'traffic' | 'durational';
  names: string;
  contents: string;
  visible: number;
  sort: number;
};
export type PackageRow = {
  id: number;
  plan_id: number;
  label: string;
  days: number;
  traffic_bytes: number;
  sort: number;
};
export type PriceRow = {
  package_id: number;
  currency: string;
  price_minor: number;
  real_minor: number;
  decimals: number;
};
export type CurrencyRow = { code: string; name: string; decimals: number; enabled: number; sort: number };

export type NewPlan = Pick<PlanRow, 'plan_group' | 'names' | 'contents' | 'sort'>;
export type NewPackage = Pick<PackageRow, 'plan_id' | 'label' | 'days' | 'traffic_bytes' | 'sort'>;
export type NewPrice = { currency: string; price_minor: number; real_minor: number };

const PLAN_COLUMNS = ['id', 'plan_group', 'names', 'contents', 'visible', 'sort'] as const;
const PACKAGE_COLUMNS = ['id', 'plan_id', 'label', 'days', 'traffic_bytes', 'sort'] as const;

export class CatalogRepository {
  constructor(private readonly db: Executor) {}

  with(tx: Executor): CatalogRepository {
    return new CatalogRepository(tx);
  }

  /** Raised by trigger on every write to plans, packages, prices and currencies (migration 0004). */
  async version(): Promise<number> {
    const row = await this.db.selectFrom('catalog_version').select('version').where('id', '=', 1).executeTakeFirst();
    return Number(row?.version ?? 0);
  }

  listPlans(onlyVisible: boolean): Promise<PlanRow[]> {
    let query = this.db.selectFrom('plans').select(PLAN_COLUMNS).orderBy('sort').orderBy('id');
    if (onlyVisible) query = query.where('visible', '=', 1);
    return query.execute();
  }

  findPlan(id: number): Promise<PlanRow | undefined> {
    return this.db.selectFrom('plans').select(PLAN_COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  /** Packages that are not removed, of the given plans. */
  listPackages(planIds: number[]): Promise<PackageRow[]> {
    if (planIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('packages')
      .select(PACKAGE_COLUMNS)
      .where('plan_id', 'in', planIds)
      .where('removed', '=', 0)
      .orderBy('sort')
      .orderBy('id')
      .execute();
  }

  findPackage(id: number): Promise<PackageRow | undefined> {
    return this.db
      .selectFrom('packages')
      .select(PACKAGE_COLUMNS)
      .where('id', '=', id)
      .where('removed', '=', 0)
      .executeTakeFirst();
  }

  /** Prices of the packages (in enabled currencies only, unless told otherwise), with each currency's decimals. */
  listPrices(packageIds: number[], onlyEnabled = true): Promise<PriceRow[]> {
    if (packageIds.length === 0) return Promise.resolve([]);
    let query = this.db
      .selectFrom('package_prices')
      .innerJoin('currencies', 'currencies.code', 'package_prices.currency')
      .select(['package_id', 'currency', 'price_minor', 'real_minor', 'currencies.decimals as decimals'])
      .where('package_id', 'in', packageIds)
      .orderBy('currencies.sort')
      .orderBy('currency');
    if (onlyEnabled) query = query.where('currencies.enabled', '=', 1);
    return query.execute();
  }

  async insertPlan(plan: NewPlan, now: number): Promise<number> {
    const row = await this.db
      .insertInto('plans')
      .values({ ...plan, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async updatePlan(id: number, changes: Partial<NewPlan & { visible: number }>): Promise<boolean> {
    const result = await this.db.updateTable('plans').set(changes).where('id', '=', id).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** A package and its prices; the caller runs it in a transaction. */
  async insertPackage(pkg: NewPackage, prices: NewPrice[]): Promise<number> {
    const row = await this.db.insertInto('packages').values(pkg).returning('id').executeTakeFirstOrThrow();
    if (prices.length) {
      await this.db
        .insertInto('package_prices')
        .values(prices.map((price) => ({ ...price, package_id: row.id })))
        .execute();
    }
    return row.id;
  }

  /** Changes a package and sets the given prices (others stay); the caller runs it in a transaction. */
  async updatePackage(id: number, changes: Partial<Omit<NewPackage, 'plan_id'>>, prices: NewPrice[]): Promise<void> {
    if (Object.keys(changes).length) await this.db.updateTable('packages').set(changes).where('id', '=', id).execute();
    for (const price of prices) {
      await this.db
        .insertInto('package_prices')
        .values({ ...price, package_id: id })
        .onConflict((oc) =>
          oc
            .columns(['package_id', 'currency'])
            .doUpdateSet({ price_minor: price.price_minor, real_minor: price.real_minor }),
        )
        .execute();
    }
  }

  async removePackage(id: number): Promise<boolean> {
    const result = await this.db
      .updateTable('packages')
      .set({ removed: 1 })
      .where('id', '=', id)
      .where('removed', '=', 0)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  listCurrencies(onlyEnabled: boolean): Promise<CurrencyRow[]> {
    let query = this.db
      .selectFrom('currencies')
      .select(['code', 'name', 'decimals', 'enabled', 'sort'])
      .orderBy('sort')
      .orderBy('code');
    if (onlyEnabled) query = query.where('enabled', '=', 1);
    return query.execute();
  }

  findCurrency(code: string): Promise<CurrencyRow | undefined> {
    return this.db
      .selectFrom('currencies')
      .select(['code', 'name', 'decimals', 'enabled', 'sort'])
      .where('code', '=', code)
      .executeTakeFirst();
  }

  /** False when the code exists already. */
  async insertCurrency(currency: Omit<CurrencyRow, 'enabled'>): Promise<boolean> {
    try {
      await this.db.insertInto('currencies').values(currency).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async setCurrencyEnabled(code: string, enabled: boolean): Promise<void> {
    await this.db
      .updateTable('currencies')
      .set({ enabled: enabled ? 1 : 0 })
      .where('code', '=', code)
      .execute();
  }

  async isEmpty(): Promise<boolean> {
    const row = await this.db.selectFrom('plans').select('id').limit(1).executeTakeFirst();
    return row === undefined;
  }
}
