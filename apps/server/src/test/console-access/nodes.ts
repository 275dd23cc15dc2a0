import { consoleArea } from './area.js';

const ADMIN = '/admin/api';

/** The console's nodes: the list with live status, add, change, token rotation, hide and show, remove. */
export const nodesArea = consoleArea({
  async targets(app, unique) {
    const { id } = await app.app.nodes.add({
      names: { en: `Target ${unique}`, 'pt-BR': `Target ${unique}`, 'zh-Hans': `Target ${unique}` },
      labels: [],
      rate: 1,
      protocol: 'trojan',
      host: 'target.example.com',
      port: 443,
      settings: {},
    });
    return { node: id };
  },
  routes: {
    [`GET ${ADMIN}/nodes`]: { permission: 'nodes.read', call: () => ({ method: 'GET', path: '/api/nodes' }) },
    [`POST ${ADMIN}/nodes`]: {
      permission: 'nodes.write',
      call: () => ({
        method: 'POST',
        path: '/api/nodes',
        json: {
          names: { en: 'Intruder', 'pt-BR': 'Intruder', 'zh-Hans': 'Intruder' },
          protocol: 'trojan',
          host: 'intruder.example.com',
          port: 443,
        },
      }),
    },
    [`PUT ${ADMIN}/nodes/:id`]: {
      permission: 'nodes.write',
      call: ({ node }) => ({ method: 'PUT', path: `/api/nodes/${node}`, json: { host: 'intruder.example.com' } }),
    },
    [`POST ${ADMIN}/nodes/:id/token`]: {
      permission: 'nodes.write',
      call: ({ node }) => ({ method: 'POST', path: `/api/nodes/${node}/token` }),
    },
    [`POST ${ADMIN}/nodes/:id/hide`]: {
      permission: 'nodes.write',
      call: ({ node }) => ({ method: 'POST', path: `/api/nodes/${node}/hide` }),
    },
    [`POST ${ADMIN}/nodes/:id/show`]: {
      permission: 'nodes.write',
      call: ({ node }) => ({ method: 'POST', path: `/api/nodes/${node}/show` }),
    },
    [`DELETE ${ADMIN}/nodes/:id`]: {
      permission: 'nodes.write',
      call: ({ node }) => ({ method: 'DELETE', path: `/api/nodes/${node}` }),
    },
  },
});
