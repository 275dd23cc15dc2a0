import fp from 'fastify-plugin';
import type { EarlyAnswers } from '../../lib/early-answers.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** GET routes answered before Fastify routes them, when their answer allows (lib/early-answers.ts). */
    earlyAnswers: EarlyAnswers;
  }
}

/** Lets the server's early answers log and count their requests, and hands them to Fastify once it closes. */
export default fp<{ earlyAnswers: EarlyAnswers }>(
  async (fastify, { earlyAnswers }) => {
    fastify.decorate('earlyAnswers', earlyAnswers);
    earlyAnswers.start({ log: fastify.log, countRequest: fastify.metrics.countRequest });
    fastify.addHook('preClose', (done) => {
      earlyAnswers.close();
      done();
    });
  },
  { name: 'early-answers', dependencies: ['metrics'] },
);
