import * as z from 'zod/mini';

export const CURRENCY_CODE_PATTERN = /^[A-Z]{3}$/;

export const CurrencySchema = z.object({ code: z.string(), name: z.string() });
export type Currency = z.infer<typeof CurrencySchema>;

export const PLAN_GROUPS = ['traffic', 'durational'] as const;
export const PlanGroupSchema = z.enum(PLAN_GROUPS);
export type PlanGroup = z.infer<typeof PlanGroupSchema>;

/** Prices in major units: `price` is the old (struck-through) one, `real` what is charged. */
export const PriceSchema = z.object({ price: z.number(), real: z.number() });
export type Price = z.infer<typeof PriceSchema>;

export const PackageSchema = z.object({
  pkgId: z.int(),
  /** The package's label, e.g. "30 days" or "100 GB". */
  pkgType: z.string(),
  /** Keyed by currency code. */
  prices: z.record(z.string(), PriceSchema),
});
export type Package = z.infer<typeof PackageSchema>;

export const PlanSchema = z.object({
  pdId: z.int(),
  pdName: z.string(),
  /** Sanitised HTML, in the request's language. */
  content: z.string(),
  packages: z.array(PackageSchema),
});
export type Plan = z.infer<typeof PlanSchema>;

export const PlansSchema = z.object({ traffic: z.array(PlanSchema), durational: z.array(PlanSchema) });
export type Plans = z.infer<typeof PlansSchema>;

/** What the shop hands the configure screen, as base64 of its JSON in the path. */
export const ProductSchema = z.object({
  pdName: z.string(),
  content: z.string(),
  packages: z.array(PackageSchema).check(z.minLength(1)),
});
export type Product = z.infer<typeof ProductSchema>;
