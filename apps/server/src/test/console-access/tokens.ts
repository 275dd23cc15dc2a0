import { consoleArea } from './area.js';

const ADMIN = '/admin/api';

/** Owners' API tokens: a live token of an owner to revoke in each round. */
export const tokensArea = consoleArea({
  async targets(app, unique) {
    const { operator } = await app.app.operators.add(`token-maker.${unique}@example.com`, 'owner');
    const token = await app.app.operators.createApiToken({
      name: `target ${unique}`,
      role: 'owner',
      createdBy: operator.id,
    });
    return { token: token.id };
  },
  routes: {
    [`GET ${ADMIN}/tokens`]: { permission: 'tokens.manage', call: () => ({ method: 'GET', path: '/api/tokens' }) },
    [`POST ${ADMIN}/tokens`]: {
      permission: 'tokens.manage',
      call: () => ({ method: 'POST', path: '/api/tokens', json: { name: 'intruder', role: 'owner' } }),
    },
    [`DELETE ${ADMIN}/tokens/:id`]: {
      permission: 'tokens.manage',
      call: ({ token }) => ({ method: 'DELETE', path: `/api/tokens/${token}` }),
    },
  },
});
