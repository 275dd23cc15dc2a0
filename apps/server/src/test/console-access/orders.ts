import { GIB } from '../../lib/units.js';
import { newCustomerOrder, newPaidOrder } from '../payments.js';
import type { TestApp } from '../test-app.js';
import { consoleArea } from './area.js';

const ADMIN = '/admin/api';

/** One package to order, made once per app: each round's customers buy it. */
const packages = new WeakMap<TestApp, Promise<number>>();

function packageOf(app: TestApp): Promise<number> {
  let pkgId = packages.get(app);
  if (!pkgId) {
    pkgId = (async () => {
      const { catalog } = app.app;
      await catalog.addCurrency('XAC', 'Access test coin', 2, 9);
      const planId = await catalog.addPlan({
        group: 'durational',
        names: { en: 'Access', 'pt-BR': 'Acesso', 'zh-Hans': '访问' },
        contents: { en: '', 'pt-BR': '', 'zh-Hans': '' },
      });
      const id = await catalog.addPackage(planId, {
        label: '30 days',
        days: 30,
        trafficBytes: 10 * GIB,
        prices: [{ currency: 'XAC', price_minor: 500, real_minor: 500 }],
      });
      return id!;
    })();
    packages.set(app, pkgId);
  }
  return pkgId;
}

/** The orders list and page, and the changes operators make to an order. */
export const ordersArea = consoleArea({
  async targets(app, unique) {
    const pkgId = await packageOf(app);
    const order = (role: string) => ({ email: `${role}.${unique}@example.com`, pkgId, currency: 'XAC' });
    const unpaid = await newCustomerOrder(app, order('unpaid'));
    const refundable = await newPaidOrder(app, order('refundable'));
    const disputed = await newPaidOrder(app, order('disputed'));
    return { unpaid: unpaid.no, refundable: refundable.no, disputed: disputed.no };
  },
  routes: {
    [`GET ${ADMIN}/orders`]: {
      permission: 'orders.read',
      call: () => ({ method: 'GET', path: '/api/orders?status=success&limit=5' }),
    },
    [`GET ${ADMIN}/orders/:no`]: {
      permission: 'orders.read',
      call: ({ refundable }) => ({ method: 'GET', path: `/api/orders/${refundable}` }),
    },
    [`POST ${ADMIN}/orders/:no/mark-paid`]: {
      permission: 'orders.markPaid',
      call: ({ unpaid }) => ({ method: 'POST', path: `/api/orders/${unpaid}/mark-paid`, json: { confirm: true } }),
    },
    [`POST ${ADMIN}/orders/:no/refund`]: {
      permission: 'orders.refund',
      call: ({ refundable }) => ({ method: 'POST', path: `/api/orders/${refundable}/refund`, json: { confirm: true } }),
    },
    [`POST ${ADMIN}/orders/:no/chargeback`]: {
      permission: 'orders.chargeback',
      call: ({ disputed }) => ({ method: 'POST', path: `/api/orders/${disputed}/chargeback`, json: { confirm: true } }),
    },
  },
});
