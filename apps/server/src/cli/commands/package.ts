import {
  type ErrorKey,
  PACKAGE_DAYS_MAX,
  PACKAGE_LABEL_MAX,
  PACKAGE_TRAFFIC_MAX_BYTES,
  SORT_LIMIT,
} from '@mutenet/contract';
import { AppError } from '../../lib/app-error.js';
import { parseMajor, toMajor } from '../../lib/money.js';
import { GIB } from '../../lib/units.js';
import type { CatalogService, PackageInput, PricedPackage } from '../../modules/catalog/catalog.service.js';
import {
  CommandError,
  command,
  currencyCode,
  type FlagSpec,
  flag,
  flags,
  id,
  integer,
  type Noun,
  type Parsed,
  text,
  UsageError,
} from '../command.js';
import { formatMajor, keyValues, toGb } from '../output.js';

/** A `--price CODE:OLD/REAL` as written; turned into minor units once the currency's decimals are known. */
type PriceSpec = { currency: string; old: string; real: string; written: string };

const MAX_DAYS = PACKAGE_DAYS_MAX;
const MAX_TRAFFIC_GB = PACKAGE_TRAFFIC_MAX_BYTES / GIB;
const LABEL_MAX = PACKAGE_LABEL_MAX;

/** The service's refusal `key` as the command line words it; any other error as it is. */
export async function refusedAs<T>(work: Promise<T>, key: ErrorKey, error: (data: unknown) => Error): Promise<T> {
  try {
    return await work;
  } catch (thrown) {
    if (thrown instanceof AppError && thrown.key === key) throw error(thrown.data);
    throw thrown;
  }
}

/** The service refuses an old price below the real one: named by the --price it came from. */
const pricesChecked = <T>(specs: PriceSpec[], work: Promise<T>) =>
  refusedAs(work, 'PRICE_OLD_BELOW_REAL', (data) => {
    const written = specs.find((spec) => spec.currency === (data as { currency: string }).currency)?.written;
    return new UsageError(`bad --price "${written}": the old price must not be below the real one`);
  });

const FLAGS = {
  label: {
    value: 'TEXT',
    help: `what the customer picks, e.g. "30 days" or "100 GB" (at most ${LABEL_MAX} characters)`,
  },
  days: { value: 'N', help: `how long the package lasts, in days (1 to ${MAX_DAYS})` },
  'traffic-gb': {
    value: 'GB',
    help: 'traffic allowance in GB (GiB): one-off for traffic plans, every 30 days for durational',
  },
  price: {
    value: 'CODE:OLD/REAL',
    help: 'price in a currency that exists, in major units: the old (struck-through) and the real one; once per currency',
    multiple: true,
  },
  sort: { value: 'N', help: 'position among the plan’s packages, smaller first (default 0)' },
} satisfies Record<string, FlagSpec>;

function priceSpecs(parsed: Parsed): PriceSpec[] {
  const specs = flags(parsed, 'price').map((written): PriceSpec => {
    const match = /^([^:]*):([^/]*)\/(.*)$/.exec(written);
    if (!match) throw new UsageError(`bad --price "${written}": must be CODE:OLD/REAL, as USD:5.99/4.99`);
    const [, code = '', old = '', real = ''] = match;
    for (const amount of [old, real]) {
      if (/^\s*-/.test(amount)) throw new UsageError(`bad --price "${written}": a price must not be negative`);
      if (!/^\d{1,12}(\.\d+)?$/.test(amount)) {
        throw new UsageError(`bad --price "${written}": "${amount}" is not an amount such as 4.99`);
      }
    }
    return { currency: currencyCode(code), old, real, written };
  });
  const seen = new Set<string>();
  for (const spec of specs) {
    if (seen.has(spec.currency)) throw new UsageError(`--price ${spec.currency} is given twice`);
    seen.add(spec.currency);
  }
  return specs;
}

/** Minor units with each currency's decimals, from the database; nothing is written before all of them pass. */
async function pricesOf(catalog: CatalogService, specs: PriceSpec[]): Promise<PackageInput['prices']> {
  const prices: PackageInput['prices'] = [];
  for (const spec of specs) {
    const currency = await catalog.findCurrency(spec.currency);
    if (!currency) {
      throw new CommandError(
        `currency ${spec.currency} not found (add it with: admin currency add --code ${spec.currency})`,
      );
    }
    const old = parseMajor(spec.old, currency.decimals);
    const real = parseMajor(spec.real, currency.decimals);
    if (old === null || real === null) {
      const allowed = currency.decimals === 0 ? 'no decimals' : `at most ${currency.decimals} decimals`;
      throw new UsageError(`bad --price "${spec.written}": ${currency.code} takes ${allowed}`);
    }
    prices.push({ currency: currency.code, price_minor: old, real_minor: real });
  }
  return prices;
}

type PackageFields = {
  label?: string;
  days?: number;
  trafficBytes?: number;
  sort?: number;
  prices: PriceSpec[];
};

function packageFields(parsed: Parsed): PackageFields {
  const label = flag(parsed, 'label');
  const days = flag(parsed, 'days');
  const traffic = flag(parsed, 'traffic-gb');
  const sort = flag(parsed, 'sort');
  return {
    ...(label !== undefined ? { label: text(label, '--label', LABEL_MAX) } : {}),
    ...(days !== undefined ? { days: integer(days, '--days', 1, MAX_DAYS) } : {}),
    ...(traffic !== undefined ? { trafficBytes: trafficBytes(traffic) } : {}),
    ...(sort !== undefined ? { sort: integer(sort, '--sort', -SORT_LIMIT, SORT_LIMIT) } : {}),
    prices: priceSpecs(parsed),
  };
}

function trafficBytes(value: string): number {
  const gb = /^\d{1,7}(\.\d{1,3})?$/.test(value) ? Number(value) : Number.NaN;
  if (!(gb > 0 && gb <= MAX_TRAFFIC_GB)) {
    throw new UsageError(
      `bad --traffic-gb "${value}": must be more than 0 and at most ${MAX_TRAFFIC_GB}, as 100 or 0.5`,
    );
  }
  return Math.round(gb * GIB);
}

// Views, shared with `plan list` and `plan show`.

export function packageJson(pkg: PricedPackage) {
  return {
    id: pkg.id,
    planId: pkg.plan_id,
    label: pkg.label,
    days: pkg.days,
    trafficBytes: pkg.traffic_bytes,
    trafficGb: toGb(pkg.traffic_bytes),
    sort: pkg.sort,
    prices: Object.fromEntries(
      pkg.prices.map((price) => [
        price.currency,
        { price: toMajor(price.price_minor, price.decimals), real: toMajor(price.real_minor, price.decimals) },
      ]),
    ),
  };
}

/** `USD 5.99/4.99, BRL 29.90/24.90`: old and real price per currency. */
export function pricesText(pkg: PricedPackage): string {
  const prices = pkg.prices.map(
    (price) =>
      `${price.currency} ${formatMajor(price.price_minor, price.decimals)}/${formatMajor(price.real_minor, price.decimals)}`,
  );
  return prices.join(', ') || '-';
}

function packageText(pkg: PricedPackage): string {
  return keyValues([
    ['id', pkg.id],
    ['plan', pkg.plan_id],
    ['label', pkg.label],
    ['days', pkg.days],
    ['traffic', `${toGb(pkg.traffic_bytes)} GB`],
    ['sort', pkg.sort],
    ...pkg.prices.map((price): [string, string] => [
      `price ${price.currency}`,
      `old ${formatMajor(price.price_minor, price.decimals)}, real ${formatMajor(price.real_minor, price.decimals)}`,
    ]),
  ]);
}

async function shown(catalog: CatalogService, packageId: number, headline: string) {
  const pkg = await catalog.findPackage(packageId);
  if (!pkg) throw new CommandError(`package ${packageId} not found`);
  return { json: packageJson(pkg), text: `${headline}\n${packageText(pkg)}` };
}

export const packageCommands: Noun = {
  summary: 'the packages of a plan: label, days, traffic and prices',
  verbs: {
    add: command({
      summary: 'adds a package to a plan; amounts are converted with each currency’s decimals',
      flags: {
        plan: { value: 'ID', help: 'the plan it belongs to', required: true },
        label: { ...FLAGS.label, required: true },
        days: { ...FLAGS.days, required: true },
        'traffic-gb': { ...FLAGS['traffic-gb'], required: true },
        price: { ...FLAGS.price, required: true },
        sort: FLAGS.sort,
      },
      example:
        'admin package add --plan 1 --label "30 days" --days 30 --traffic-gb 100 --price USD:5.99/4.99 --price BRL:29.90/24.90',
      parse: (parsed) => ({ planId: id(flag(parsed, 'plan') ?? '', 'plan id'), ...packageFields(parsed) }),
      async run(input, { catalog }) {
        if (!(await catalog.findPlan(input.planId))) throw new CommandError(`plan ${input.planId} not found`);
        const prices = await pricesOf(catalog, input.prices);
        const packageId = await pricesChecked(
          input.prices,
          catalog.addPackage(input.planId, {
            label: input.label ?? '',
            days: input.days ?? 0,
            trafficBytes: input.trafficBytes ?? 0,
            ...(input.sort !== undefined ? { sort: input.sort } : {}),
            prices,
          }),
        );
        return shown(catalog, packageId, `package ${packageId} added to plan ${input.planId}`);
      },
    }),
    update: command({
      summary: 'changes a package; a --price sets that currency’s prices and keeps the others',
      args: ['ID'],
      flags: FLAGS,
      example: 'admin package update 4 --label "1 month" --price USD:6.99/5.99',
      parse(parsed) {
        const packageId = id(parsed.positionals[0] ?? '', 'package id');
        const fields = packageFields(parsed);
        const { prices, ...rest } = fields;
        if (prices.length === 0 && Object.keys(rest).length === 0) {
          throw new UsageError(
            'nothing to change: give at least one of --label, --days, --traffic-gb, --price, --sort',
          );
        }
        return { packageId, ...fields };
      },
      async run({ packageId, prices, ...changes }, { catalog }) {
        if (!(await catalog.findPackage(packageId))) throw new CommandError(`package ${packageId} not found`);
        const converted = await pricesOf(catalog, prices);
        await pricesChecked(prices, catalog.updatePackage(packageId, { ...changes, prices: converted }));
        return shown(catalog, packageId, `package ${packageId} updated`);
      },
    }),
    remove: command({
      summary: 'takes a package off sale; orders that name it keep it',
      args: ['ID'],
      example: 'admin package remove 4',
      parse: (parsed) => ({ packageId: id(parsed.positionals[0] ?? '', 'package id') }),
      async run({ packageId }, { catalog }) {
        await refusedAs(
          catalog.removePackage(packageId),
          'NOT_FOUND',
          () => new CommandError(`package ${packageId} not found`),
        );
        return { json: { id: packageId, removed: true }, text: `package ${packageId} removed` };
      },
    }),
  },
};
