import {
  type AdminNode,
  adminAddNode,
  adminGetNodes,
  adminHideNode,
  adminRemoveNode,
  adminRotateNodeToken,
  adminShowNode,
  adminUpdateNode,
  NodeSettingsError,
} from '@mutenet/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.js';
import { ok } from '../../lib/envelope.js';
import { routeOf } from '../../lib/route.js';
import type { NodeView } from './nodes.service.js';

export type NodesConsoleOptions = {
  /** `PUBLIC_URL`: where the agents reach the node API, written into their configuration entries. */
  publicUrl: string;
};

/** A setting its protocol does not take: the envelope's message in the operator's language, the field in `data`. */
async function settingsChecked<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof NodeSettingsError) {
      throw new AppError('NODE_SETTING_INVALID', { field: error.key, reason: error.message });
    }
    throw error;
  }
}

/** The console's nodes routes, under ADMIN_PATH. */
export default async function nodesConsoleRoutes(fastify: FastifyInstance, { publicUrl }: NodesConsoleOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const readers = { onRequest: fastify.operatorCan('nodes.read') };
  const writers = { onRequest: fastify.operatorCan('nodes.write') };
  const { nodes, nodeApi } = fastify;

  /** Every node as the console shows it: its live status and what it carried today (UTC). */
  const listed = async (): Promise<AdminNode[]> => {
    const [list, traffic] = await Promise.all([nodes.withStatus(), nodeApi.trafficByNode(1)]);
    const today = new Map(traffic.map((entry) => [entry.nodeId, entry]));
    return list.map(({ node, online, onlineUsers }) =>
      adminNode(node, {
        online,
        onlineUsers,
        todayUpload: today.get(node.id)?.upload ?? 0,
        todayDownload: today.get(node.id)?.download ?? 0,
      }),
    );
  };

  /** One node as the list shows it. */
  const shown = async (id: number): Promise<AdminNode> => {
    const found = (await listed()).find((node) => node.id === id);
    if (!found) throw new AppError('NOT_FOUND');
    return found;
  };

  /** The node with its new token and the agents' entries: never cached, shown this once. */
  const withToken = async (reply: FastifyReply, id: number, token: string) => {
    reply.header('cache-control', 'no-store');
    const node = await nodes.find(id);
    if (!node) throw new AppError('NOT_FOUND');
    return { node: await shown(id), token, ...nodes.agentEntries(node, token, publicUrl) };
  };

  app.route({
    ...routeOf(adminGetNodes),
    ...readers,
    handler: async (request) => {
      return ok(request, { nodes: await listed() });
    },
  });

  app.route({
    ...routeOf(adminAddNode),
    ...writers,
    handler: async (request, reply) => {
      const { id, token } = await settingsChecked(nodes.add(request.body, request.audit));
      return ok(request, await withToken(reply, id, token));
    },
  });

  app.route({
    ...routeOf(adminUpdateNode),
    ...writers,
    handler: async (request) => {
      const { id } = request.params;
      if (!(await settingsChecked(nodes.update(id, request.body, request.audit)))) throw new AppError('NOT_FOUND');
      return ok(request, await shown(id));
    },
  });

  app.route({
    ...routeOf(adminRotateNodeToken),
    ...writers,
    handler: async (request, reply) => {
      const { id } = request.params;
      const token = await nodes.rotateToken(id, request.audit);
      if (!token) throw new AppError('NOT_FOUND');
      return ok(request, await withToken(reply, id, token));
    },
  });

  for (const [endpoint, visible] of [
    [adminHideNode, false],
    [adminShowNode, true],
  ] as const) {
    app.route({
      ...routeOf(endpoint),
      ...writers,
      handler: async (request) => {
        const { id } = request.params;
        if (!(await nodes.update(id, { visible }, request.audit))) throw new AppError('NOT_FOUND');
        return ok(request, await shown(id));
      },
    });
  }

  app.route({
    ...routeOf(adminRemoveNode),
    ...writers,
    handler: async (request) => {
      const { id } = request.params;
      if (!(await nodes.remove(id, request.audit))) throw new AppError('NOT_FOUND');
      return ok(request, { id });
    },
  });
}

/** The node without the keys only the node needs (REALITY's private key, the Shadowsocks 2022 server key). */
function adminNode(
  node: NodeView,
  status: Pick<AdminNode, 'online' | 'onlineUsers' | 'todayUpload' | 'todayDownload'>,
): AdminNode {
  const { realityPrivateKey: _private, serverKey: _server, ...settings } = node.settings;
  return {
    id: node.id,
    names: JSON.parse(node.names) as AdminNode['names'],
    protocol: node.protocol,
    host: node.host,
    port: node.port,
    rate: node.rate,
    labels: node.labels ? node.labels.split(',') : [],
    visible: node.visible === 1,
    sort: node.sort,
    settings: Object.fromEntries(
      Object.entries(settings).filter((entry): entry is [string, string | boolean] => entry[1] !== undefined),
    ),
    ...status,
  };
}
