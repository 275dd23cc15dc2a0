import type { Order, Plan, Plans, Product } from '@mutenet/contract';

/** A catalogue like the demo one: two traffic plans and one by cycle, priced in dollars and reais. */
export const TRAFFIC_PLAN: Plan = {
  pdId: 1,
  pdName: 'Traffic 100 GB',
  content: '<p>100 GB to use within the period.</p>',
  packages: [
    {
      pkgId: 1,
      pkgType: '100 GB / 30 days',
      prices: { USD: { price: 6, real: 4.99 }, BRL: { price: 30, real: 24.9 } },
    },
    {
      pkgId: 2,
      pkgType: '100 GB / 90 days',
      prices: { USD: { price: 8, real: 6.99 }, BRL: { price: 40, real: 34.9 } },
    },
  ],
};

export const BIG_TRAFFIC_PLAN: Plan = {
  pdId: 2,
  pdName: 'Traffic 500 GB',
  content: '<p>500 GB for heavy use.</p>',
  packages: [{ pkgId: 3, pkgType: '500 GB / 90 days', prices: { USD: { price: 19.99, real: 15.99 } } }],
};

export const CYCLE_PLAN: Plan = {
  pdId: 3,
  pdName: 'Unlimited time plan',
  content: '<p>200 GB every 30 days.</p>',
  packages: [
    { pkgId: 4, pkgType: '30 days', prices: { USD: { price: 7.99, real: 5.99 }, BRL: { price: 39.9, real: 29.9 } } },
    { pkgId: 5, pkgType: '90 days', prices: { USD: { price: 23.97, real: 15.99 }, BRL: { price: 119.7, real: 79.9 } } },
  ],
};

export const PLANS: Plans = { traffic: [TRAFFIC_PLAN, BIG_TRAFFIC_PLAN], durational: [CYCLE_PLAN] };

export const CURRENCIES = [
  { code: 'USD', name: 'US Dollar' },
  { code: 'BRL', name: 'Real brasileiro' },
];

export function productOf(plan: Plan): Product {
  return { pdName: plan.pdName, content: plan.content, packages: plan.packages };
}

let orderCount = 0;

/** An order of the customer's; each one gets its own 24-digit number unless given one. */
export function makeOrder(overrides: Partial<Order> = {}): Order {
  orderCount += 1;
  return {
    no: `20261121152500${String(orderCount).padStart(10, '0')}`,
    pdName: 'Traffic 100 GB',
    pkgType: '100 GB / 30 days',
    status: 'waiting',
    currency: 'USD',
    totalPrice: 4.99,
    createAt: Date.UTC(2026, 10, 21, 15, 25, 0),
    ...overrides,
  };
}
