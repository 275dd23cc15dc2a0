import * as z from 'zod/mini';
import { CURRENCY_CODE_PATTERN, PlanGroupSchema } from '../catalog/catalog.schema.js';
import { endpoint } from '../endpoint.js';
import { envelopeOf } from '../envelope.js';
import { firstFailing } from '../rules.js';

// The limits the console and the command line share: far above any real plan, low enough to refuse a pasted book.
export const PLAN_NAME_MAX = 200;
export const PLAN_CONTENT_MAX = 20_000;
export const PACKAGE_LABEL_MAX = 64;
export const PACKAGE_DAYS_MAX = 36_500;
/** One million GiB. */
export const PACKAGE_TRAFFIC_MAX_BYTES = 1_000_000 * 2 ** 30;
export const CURRENCY_NAME_MAX = 64;
/** ISO 4217 uses 0 to 4 digits after the point. */
export const CURRENCY_DECIMALS_MAX = 4;
export const SORT_LIMIT = 1_000_000;
/** An amount in minor units (cents): up to 12 digits, as the command line takes. */
export const PRICE_MINOR_MAX = 999_999_999_999;

const id = z.coerce.number().check(z.int(), z.positive(), z.maximum(2_147_483_647));
const sort = z.int().check(z.minimum(-SORT_LIMIT), z.maximum(SORT_LIMIT));
const textOf = (max: number) => z.string().check(z.maxLength(max));
/** A name: not blank, kept as written. */
const nameOf = (max: number) =>
  z.string().check(
    z.maxLength(max),
    z.refine((text) => text.trim() !== ''),
  );

/** A text in each language the panel speaks. */
const localizedOf = (text: z.ZodMiniString<string>) => z.object({ en: text, 'pt-BR': text, 'zh-Hans': text });

/**
 * A price of a package in one currency, in minor units (cents; the currency's `decimals` say how many digits):
 * `price` is the old (struck-through) one, `real` what is charged.
 */
export const CatalogPriceSchema = z.object({
  currency: z.string(),
  price: z.int(),
  real: z.int(),
  decimals: z.int(),
});
export type CatalogPrice = z.infer<typeof CatalogPriceSchema>;

export const CatalogPackageSchema = z.object({
  id: z.number(),
  planId: z.number(),
  label: z.string(),
  days: z.int(),
  trafficBytes: z.number(),
  sort: z.int(),
  /** Every currency it has a price in, enabled or not. */
  prices: z.array(CatalogPriceSchema),
});
export type CatalogPackage = z.infer<typeof CatalogPackageSchema>;

/** A plan as operators see it: every language, hidden or not, with the packages on sale. */
export const CatalogPlanSchema = z.object({
  id: z.number(),
  group: PlanGroupSchema,
  names: localizedOf(z.string()),
  /** HTML as stored (reduced to formatting when saved); the customer panel sanitises it again when showing it. */
  contents: localizedOf(z.string()),
  /** Listed in the shop; a hidden plan keeps its packages and orders. */
  visible: z.boolean(),
  sort: z.int(),
  packages: z.array(CatalogPackageSchema),
});
export type CatalogPlan = z.infer<typeof CatalogPlanSchema>;

export const CatalogCurrencySchema = z.object({
  code: z.string(),
  name: z.string(),
  decimals: z.int(),
  enabled: z.boolean(),
  sort: z.int(),
});
export type CatalogCurrency = z.infer<typeof CatalogCurrencySchema>;

export const CatalogPlansSchema = z.object({
  traffic: z.array(CatalogPlanSchema),
  durational: z.array(CatalogPlanSchema),
});
export type CatalogPlans = z.infer<typeof CatalogPlansSchema>;

/** Every plan by group, hidden ones too, each group in its order. */
export const adminGetPlans = endpoint({
  method: 'GET',
  path: '/api/catalog/plans',
  response: envelopeOf(CatalogPlansSchema),
});

export const PlanBodySchema = z.object({
  group: PlanGroupSchema,
  names: localizedOf(nameOf(PLAN_NAME_MAX)),
  contents: localizedOf(textOf(PLAN_CONTENT_MAX)),
  sort: z.optional(sort),
});
export type PlanBody = z.input<typeof PlanBodySchema>;

/** Adds a plan, listed in the shop once it has a package with a price. */
export const adminAddPlan = endpoint({
  method: 'POST',
  path: '/api/catalog/plans',
  body: PlanBodySchema,
  response: envelopeOf(CatalogPlanSchema),
});

export const CatalogIdParamsSchema = z.object({ id });

export const UpdatePlanBodySchema = z.partial(PlanBodySchema);
export type UpdatePlanBody = z.input<typeof UpdatePlanBodySchema>;

/** Changes what is given of a plan: its group, names and contents (each all three languages), or its position. */
export const adminUpdatePlan = endpoint({
  method: 'PUT',
  path: '/api/catalog/plans/:id',
  params: CatalogIdParamsSchema,
  body: UpdatePlanBodySchema,
  response: envelopeOf(CatalogPlanSchema),
});

/** Lists a plan in the shop or takes it out (its packages and orders stay). */
export const adminSetPlanVisible = endpoint({
  method: 'PUT',
  path: '/api/catalog/plans/:id/visible',
  params: CatalogIdParamsSchema,
  body: z.object({ visible: z.boolean() }),
  response: envelopeOf(CatalogPlanSchema),
});

export const PlanOrderBodySchema = z
  .object({ group: PlanGroupSchema, planIds: z.array(id).check(z.minLength(1), z.maxLength(1000)) })
  .check(firstFailing([[(v) => new Set(v.planIds).size === v.planIds.length, 'BAD_REQUEST']]));
export type PlanOrderBody = z.input<typeof PlanOrderBodySchema>;

/** Puts a group's plans in the order given (each must be of that group); the others of the group follow. */
export const adminOrderPlans = endpoint({
  method: 'PUT',
  path: '/api/catalog/plan-order',
  body: PlanOrderBodySchema,
  response: envelopeOf(CatalogPlansSchema),
});

const amount = z.int().check(z.minimum(0), z.maximum(PRICE_MINOR_MAX));

export const PriceBodySchema = z.object({
  currency: z.string().check(z.regex(CURRENCY_CODE_PATTERN)),
  price: amount,
  real: amount,
});

/** Prices in minor units, one per currency; a currency must exist, and the old price is not below the real one. */
const pricesOf = (min: number) =>
  z
    .array(PriceBodySchema)
    .check(
      z.minLength(min),
      z.maxLength(50),
      firstFailing([
        [(prices) => new Set(prices.map((p) => p.currency)).size === prices.length, 'PRICE_CURRENCY_TWICE'],
      ]),
    );

const packageFields = {
  label: nameOf(PACKAGE_LABEL_MAX),
  days: z.int().check(z.minimum(1), z.maximum(PACKAGE_DAYS_MAX)),
  trafficBytes: z.int().check(z.positive(), z.maximum(PACKAGE_TRAFFIC_MAX_BYTES)),
  sort: z.optional(sort),
};

export const PackageBodySchema = z.object({ ...packageFields, prices: pricesOf(1) });
export type PackageBody = z.input<typeof PackageBodySchema>;

/** Adds a package to a plan, as `admin package add` does. */
export const adminAddPackage = endpoint({
  method: 'POST',
  path: '/api/catalog/plans/:id/packages',
  params: CatalogIdParamsSchema,
  body: PackageBodySchema,
  response: envelopeOf(CatalogPackageSchema),
});

export const UpdatePackageBodySchema = z.object({
  label: z.optional(packageFields.label),
  days: z.optional(packageFields.days),
  trafficBytes: z.optional(packageFields.trafficBytes),
  sort: packageFields.sort,
  /** Sets these currencies' prices; the package keeps its prices in the others. */
  prices: z.optional(pricesOf(0)),
});
export type UpdatePackageBody = z.input<typeof UpdatePackageBodySchema>;

/** Changes what is given of a package, as `admin package update` does. */
export const adminUpdatePackage = endpoint({
  method: 'PUT',
  path: '/api/catalog/packages/:id',
  params: CatalogIdParamsSchema,
  body: UpdatePackageBodySchema,
  response: envelopeOf(CatalogPackageSchema),
});

/** Takes a package off sale; orders that name it keep it. */
export const adminRemovePackage = endpoint({
  method: 'DELETE',
  path: '/api/catalog/packages/:id',
  params: CatalogIdParamsSchema,
  response: envelopeOf(z.object({ id: z.number() })),
});

/** Every currency, disabled ones too. */
export const adminGetCurrencies = endpoint({
  method: 'GET',
  path: '/api/catalog/currencies',
  response: envelopeOf(z.object({ currencies: z.array(CatalogCurrencySchema) })),
});

export const CurrencyBodySchema = z.object({
  /** ISO 4217, kept in capitals. */
  code: z.pipe(
    z.string().check(z.regex(/^[A-Za-z]{3}$/)),
    z.transform((code: string) => code.toUpperCase()),
  ),
  name: nameOf(CURRENCY_NAME_MAX),
  decimals: z._default(z.int().check(z.minimum(0), z.maximum(CURRENCY_DECIMALS_MAX)), 2),
  sort: z._default(sort, 0),
});
export type CurrencyBody = z.input<typeof CurrencyBodySchema>;

export const CurrencyCodeParamsSchema = z.object({ code: z.string().check(z.regex(/^[A-Z]{3}$/)) });

/** Offers a currency at the checkout or stops offering it (its prices stay), as `admin currency enable|disable`. */
export const adminSetCurrencyEnabled = endpoint({
  method: 'PUT',
  path: '/api/catalog/currencies/:code/enabled',
  params: CurrencyCodeParamsSchema,
  body: z.object({ enabled: z.boolean() }),
  response: envelopeOf(CatalogCurrencySchema),
});

/** Adds a currency (enabled), as `admin currency add` does. */
export const adminAddCurrency = endpoint({
  method: 'POST',
  path: '/api/catalog/currencies',
  body: CurrencyBodySchema,
  response: envelopeOf(CatalogCurrencySchema),
});
