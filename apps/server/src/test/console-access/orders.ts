import { newCustomerOrder, newPaidOrder } from '../payments.js';
import { consoleArea } from './area.js';
import { packageOnSale } from './on-sale.js';

const ADMIN = '/admin/api';

/** The orders list and page, and the changes operators make to an order. */
export const ordersArea = consoleArea({
  async targets(app, unique) {
    const pkgId = await packageOnSale(app, { currency: 'XAC', group: 'durational', price: 500 });
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
