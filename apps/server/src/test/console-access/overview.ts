import { consoleArea } from './area.js';

const ADMIN = '/admin/api';

/** The overview: figures only, nothing to make. */
export const overviewArea = consoleArea({
  async targets() {
    return {};
  },
  routes: {
    [`GET ${ADMIN}/overview`]: { permission: 'overview.read', call: () => ({ method: 'GET', path: '/api/overview' }) },
  },
});
