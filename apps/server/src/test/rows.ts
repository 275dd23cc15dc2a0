import type { SeededCatalog } from './catalog.js';

/**
 * An order of the seeded "Traffic 100" package, as a row written straight to the database: for tests that need many
 * orders or packages, or rows made outside the app's own calls.
 */
export function orderRow(
  seeded: SeededCatalog,
  { userId, no, status = 'success', at = 0 }: { userId: number; no: string; status?: string; at?: number },
) {
  return {
    no,
    user_id: userId,
    plan_id: seeded.traffic,
    package_id: seeded.traffic30,
    plan_names: JSON.stringify({ en: 'Traffic 100', 'pt-BR': 'T', 'zh-Hans': 'T' }),
    package_label: '100 GB / 30 days',
    days: 30,
    traffic_bytes: 1,
    currency: 'USD',
    amount_minor: 499,
    decimals: 2,
    status,
    created_at: at,
    updated_at: at,
    due_at: at,
  };
}

/** The package of such an order, as a row. */
export function packageRow(seeded: SeededCatalog, { userId, orderId }: { userId: number; orderId: number }) {
  return {
    user_id: userId,
    order_id: orderId,
    plan_id: seeded.traffic,
    package_id: seeded.traffic30,
    traffic_total: 10,
    days: 30,
    starts_at: 0,
    ends_at: 1,
    created_at: 0,
  };
}
