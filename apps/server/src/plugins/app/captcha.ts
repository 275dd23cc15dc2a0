import { randomInt, randomUUID } from 'node:crypto';
import { CAPTCHA_TTL_SECONDS, type Captcha } from '@mutenet/contract';
import fp from 'fastify-plugin';
import svgCaptcha from 'svg-captcha';
import { sameSecret } from '../../lib/secrets.js';

export const CAPTCHA_TTL_MS = CAPTCHA_TTL_SECONDS * 1000;
const KEY = (id: string) => `captcha:${id}`;

/** Letters and digits, less those easily taken for one another (0 o 1 i l I). */
const ALPHABET = 'ABCDEFGHJKLMNOPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789';
export const CAPTCHA_LENGTH = 4;
export const CAPTCHA_DATA_URI_PREFIX = 'data:image/svg+xml;base64,';

/** svg-captcha's picture of a given text, `svgCaptcha(text, options)` in its README (its types leave it out). */
const drawText = svgCaptcha as unknown as (text: string, options: Parameters<typeof svgCaptcha.create>[0]) => string;

/**
 * A captcha's text and its picture, an SVG document. The text is drawn from the crypto generator, evenly over the
 * alphabet: svg-captcha's own uses Math.random, whose next values can be worked out from earlier ones.
 */
export function drawCaptcha(): { text: string; svg: string } {
  const text = Array.from({ length: CAPTCHA_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return { text, svg: drawText(text, { noise: 2, color: true, background: '#f4f6f8' }) };
}

export interface Captchas {
  /** A new captcha: its id, and its picture as a `data:` URI. */
  create(): Promise<Captcha>;
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
        const { text, svg } = drawCaptcha();
        const imgId = randomUUID();
        await fastify.store.set(KEY(imgId), text.toLowerCase(), CAPTCHA_TTL_MS);
        return { imgId, imgDat: `${CAPTCHA_DATA_URI_PREFIX}${Buffer.from(svg).toString('base64')}` };
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
