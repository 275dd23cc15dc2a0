import { randomUUID } from 'node:crypto';
import { CAPTCHA_TTL_SECONDS } from '@mutenet/contract';
import fp from 'fastify-plugin';
import { sameSecret } from '../../lib/secrets.js';
import { createCaptchaImage } from './captcha-image.js';

export const CAPTCHA_TTL_MS = CAPTCHA_TTL_SECONDS * 1000;
const KEY = (id: string) => `captcha:${id}`;

export interface Captchas {
  /** A new captcha: its id, and its picture as an SVG document in base64 (createCaptchaImage). */
  create(): Promise<{ imgId: string; svgBase64: string }>;
  /** Consumes the captcha whatever the answer: each one can be tried once. */
  verify(imgId: string, answer: string): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyInstance {
    captchas: Captchas;
  }
}

export type CaptchaOptions = { testCode?: string | undefined };

export default fp<CaptchaOptions>(
  async (fastify, { testCode }) => {
    const captchas: Captchas = {
      async create() {
        const { text, svgBase64 } = createCaptchaImage();
        // Node draws UUIDs from a cache of random bytes: randomBytes(16) asks OpenSSL each time, at 10 times the cost.
        const imgId = randomUUID();
        await fastify.store.set(KEY(imgId), text.toLowerCase(), CAPTCHA_TTL_MS);
        return { imgId, svgBase64 };
      },
      async verify(imgId, answer) {
        if (!imgId || imgId.length > 64) return false;
        const expected = await fastify.store.take(KEY(imgId));
        if (expected === null) return false;
        const given = answer.trim().toLowerCase();
        return sameSecret(given, expected) || (testCode !== undefined && sameSecret(answer.trim(), testCode));
      },
    };
    fastify.decorate('captchas', captchas);
  },
  { name: 'captcha', dependencies: ['store'] },
);
