import type { Node, Order, PackageStat, Plan, Plans, Product, RuntimeConfig } from '@mutenet/contract';

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

const GB = 1024 ** 3;
const DAY_S = 24 * 60 * 60;

/** A package of the customer's, running from a day ago for 30 days, 12.5 GB of 100 GB used, unless told otherwise. */
export function makePackage(overrides: Partial<PackageStat> = {}): PackageStat {
  const now = Math.floor(Date.now() / 1000);
  return {
    pdName: 'Traffic 100 GB',
    startAt: now - DAY_S,
    endAt: now + 29 * DAY_S,
    trafficTotal: 100 * GB,
    trafficUsed: 12.5 * GB,
    trafficUsedPct: 12.5,
    ...overrides,
  };
}

export function makeNode(overrides: Partial<Node> = {}): Node {
  return { name: 'Tokyo', label: 'fast,stream', mag: 1.5, status: 'online', ...overrides };
}

/** The runtime configuration, with a download link of its own for each guide. */
export const RUNTIME_CONFIG: RuntimeConfig = {
  version: '2.4.1',
  websiteUrl: 'https://mutenet.example/',
  downloads: {
    officialAndroid: 'https://downloads.example/mutenet.apk',
    v2rayNG: 'https://downloads.example/v2rayNG.apk',
    clashWindows: 'https://downloads.example/clash-setup.exe',
    shadowrocket: 'https://apps.example/shadowrocket',
    foxray: 'https://apps.example/foxray',
  },
};

export const SUBSCRIPTION_LINK = 'https://panel.example/sub/abcDEF123';
