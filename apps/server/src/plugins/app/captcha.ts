import { randomBytes } from 'node:crypto';
import { CAPTCHA_TTL_SECONDS } from '@mutenet/contract';
import fp from 'fastify-plugin';
import svgCaptcha from 'svg-captcha';
import { sameSecret } from '../../lib/secrets.js';

export const CAPTCHA_TTL_MS = CAPTCHA_TTL_SECONDS * 1000;
const KEY = (id: string) => `captcha:${id}`;

export interface Captchas {
  create(): Promise<{ imgId: string; imgDat: string }>;
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
        const { text, data } = svgCaptcha.create({
          size: 4,
          ignoreChars: '0o1ilI',
          noise: 2,
          color: true,
          background: '#f4f6f8',
        });
        const imgId = randomBytes(16).toString('base64url');
        await fastify.store.set(KEY(imgId), text.toLowerCase(), CAPTCHA_TTL_MS);
        return { imgId, imgDat: `data:image/svg+xml;base64,${Buffer.from(data).toString('base64')}` };
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
