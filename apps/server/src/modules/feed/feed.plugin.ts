import fp from 'fastify-plugin';
import feedRoutes from './feed.routes.js';
import { FeedService } from './feed.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where customers reach this server, for the links it writes. */
    publicUrl: string;
  }
}

/** The subscription link's answer: the customer's nodes in the format their client app reads. */
export default fp<{ title: string; publicUrl: string }>(
  async (fastify, { title, publicUrl }) => {
    fastify.decorate('publicUrl', publicUrl);
    const feed = new FeedService(fastify.subscriptions, fastify.nodes, {
      store: fastify.store,
      log: fastify.log,
      title,
    });
    await fastify.register(feedRoutes, { feed });
  },
  { name: 'feed', dependencies: ['subscription', 'nodes', 'store', 'i18n', 'early-answers'] },
);
