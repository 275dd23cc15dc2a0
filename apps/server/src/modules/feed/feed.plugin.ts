import fp from 'fastify-plugin';
import feedRoutes from './feed.routes.js';
import { FeedService } from './feed.service.js';

/** The subscription link's answer: the customer's nodes in the format their client app reads. */
export default fp<{ title: string; publicUrl: string }>(
  async (fastify, { title, publicUrl }) => {
    const feed = new FeedService(fastify.subscriptions, fastify.nodes, { title, publicUrl });
    await fastify.register(feedRoutes, { feed });
  },
  { name: 'feed', dependencies: ['subscription', 'nodes', 'i18n', 'rate-limit'] },
);
