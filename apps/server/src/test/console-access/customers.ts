import { newPaidOrder } from '../payments.js';
import { consoleArea } from './area.js';
import { packageOnSale } from './on-sale.js';

const ADMIN = '/admin/api';

/** The customers search and page, and the changes operators make to a customer. */
export const customersArea = consoleArea({
  /** A customer with a running package, signed in (one session). */
  async targets(app, unique) {
    const pkgId = await packageOnSale(app, { currency: 'XCU', group: 'traffic', price: 300 });
    const { order } = await newPaidOrder(app, { email: `customer.${unique}@example.com`, pkgId, currency: 'XCU' });
    const session = await app.app.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', order.user_id)
      .executeTakeFirstOrThrow();
    return { customer: order.user_id, session: session.id };
  },
  routes: {
    [`GET ${ADMIN}/customers`]: {
      permission: 'customers.read',
      call: ({ customer }) => ({ method: 'GET', path: `/api/customers?search=${customer}` }),
    },
    [`GET ${ADMIN}/customers/:id`]: {
      permission: 'customers.read',
      call: ({ customer }) => ({ method: 'GET', path: `/api/customers/${customer}` }),
    },
    [`POST ${ADMIN}/customers/:id/add-days`]: {
      permission: 'customers.addDays',
      call: ({ customer }) => ({ method: 'POST', path: `/api/customers/${customer}/add-days`, json: { days: 30 } }),
    },
    [`POST ${ADMIN}/customers/:id/add-traffic`]: {
      permission: 'customers.addTraffic',
      call: ({ customer }) => ({ method: 'POST', path: `/api/customers/${customer}/add-traffic`, json: { gb: 50 } }),
    },
    [`POST ${ADMIN}/customers/:id/unban`]: {
      permission: 'customers.ban',
      call: ({ customer }) => ({ method: 'POST', path: `/api/customers/${customer}/unban`, json: {} }),
    },
    [`POST ${ADMIN}/customers/:id/reset-subscription`]: {
      permission: 'customers.resetSubscription',
      call: ({ customer }) => ({ method: 'POST', path: `/api/customers/${customer}/reset-subscription`, json: {} }),
    },
    [`DELETE ${ADMIN}/customers/:id/sessions/:sessionId`]: {
      permission: 'customers.revokeSession',
      call: ({ customer, session }) => ({ method: 'DELETE', path: `/api/customers/${customer}/sessions/${session}` }),
    },
    [`POST ${ADMIN}/customers/:id/ban`]: {
      permission: 'customers.ban',
      call: ({ customer }) => ({ method: 'POST', path: `/api/customers/${customer}/ban`, json: {} }),
    },
  },
});
