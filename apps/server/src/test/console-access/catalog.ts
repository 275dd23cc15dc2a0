import { AppError } from '../../lib/app-error.js';
import { GIB } from '../../lib/units.js';
import { consoleArea } from './area.js';

const ADMIN = '/admin/api';

const texts = (text: string) => ({ en: text, 'pt-BR': text, 'zh-Hans': text });
const usd = [{ currency: 'USD', price: 200, real: 100 }];

/** Three capital letters of its own for each plan id (below 26³): the currency a round adds. */
const codeOf = (id: number) =>
  [2, 1, 0].map((power) => String.fromCharCode(65 + (Math.floor(id / 26 ** power) % 26))).join('');

/** The catalogue: a plan with a package priced in USD, fresh each round. */
export const catalogArea = consoleArea({
  async targets(app, unique) {
    const { catalog } = app.app;
    await catalog.addCurrency('USD', 'US Dollar').catch((error) => {
      if (!(error instanceof AppError && error.key === 'CURRENCY_EXISTS')) throw error;
    });
    const plan = await catalog.addPlan({ group: 'traffic', names: texts(`Plan ${unique}`), contents: texts('') });
    const pkg = await catalog.addPackage(plan, {
      label: '30 days',
      days: 30,
      trafficBytes: GIB,
      prices: [{ currency: 'USD', price_minor: 200, real_minor: 100 }],
    });
    // A currency of the round's own to switch off (the codes from 8000 up are never a round's added one).
    const currency = codeOf(plan + 8000);
    await catalog.addCurrency(currency, 'Switched');
    return { plan, pkg, currency };
  },
  routes: {
    [`GET ${ADMIN}/catalog/plans`]: {
      permission: 'catalog.read',
      call: () => ({ method: 'GET', path: '/api/catalog/plans' }),
    },
    [`GET ${ADMIN}/catalog/currencies`]: {
      permission: 'catalog.read',
      call: () => ({ method: 'GET', path: '/api/catalog/currencies' }),
    },
    [`POST ${ADMIN}/catalog/plans`]: {
      permission: 'catalog.write',
      call: () => ({
        method: 'POST',
        path: '/api/catalog/plans',
        json: { group: 'traffic', names: texts('Intruder'), contents: texts('<p>free</p>') },
      }),
    },
    [`PUT ${ADMIN}/catalog/plans/:id`]: {
      permission: 'catalog.write',
      call: ({ plan }) => ({ method: 'PUT', path: `/api/catalog/plans/${plan}`, json: { names: texts('Renamed') } }),
    },
    [`PUT ${ADMIN}/catalog/plans/:id/visible`]: {
      permission: 'catalog.write',
      call: ({ plan }) => ({ method: 'PUT', path: `/api/catalog/plans/${plan}/visible`, json: { visible: false } }),
    },
    [`PUT ${ADMIN}/catalog/plan-order`]: {
      permission: 'catalog.write',
      call: ({ plan }) => ({
        method: 'PUT',
        path: '/api/catalog/plan-order',
        json: { group: 'traffic', planIds: [plan] },
      }),
    },
    [`POST ${ADMIN}/catalog/plans/:id/packages`]: {
      permission: 'catalog.write',
      call: ({ plan }) => ({
        method: 'POST',
        path: `/api/catalog/plans/${plan}/packages`,
        json: { label: '1 day', days: 1, trafficBytes: GIB, prices: usd },
      }),
    },
    [`PUT ${ADMIN}/catalog/packages/:id`]: {
      permission: 'catalog.write',
      call: ({ pkg }) => ({
        method: 'PUT',
        path: `/api/catalog/packages/${pkg}`,
        json: { prices: [{ currency: 'USD', price: 1, real: 0 }] },
      }),
    },
    [`PUT ${ADMIN}/catalog/currencies/:code/enabled`]: {
      permission: 'catalog.write',
      call: ({ currency }) => ({
        method: 'PUT',
        path: `/api/catalog/currencies/${currency}/enabled`,
        json: { enabled: false },
      }),
    },
    [`POST ${ADMIN}/catalog/currencies`]: {
      permission: 'catalog.write',
      call: ({ plan }) => ({
        method: 'POST',
        path: '/api/catalog/currencies',
        json: { code: codeOf(plan), name: 'Mine' },
      }),
    },
    [`DELETE ${ADMIN}/catalog/packages/:id`]: {
      permission: 'catalog.write',
      call: ({ pkg }) => ({ method: 'DELETE', path: `/api/catalog/packages/${pkg}` }),
    },
  },
});
