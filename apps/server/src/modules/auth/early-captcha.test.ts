import { getCaptcha, messageOf, REQUEST_LANGUAGES } from '@mutenet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { responseSerializerOf } from '../../lib/response-serializer.js';
import { CAPTCHA_DATA_URI_PREFIX, createCaptchaImage } from '../../plugins/app/captcha-image.js';
import { bothWays, request, routedUnder } from '../../test/early-answers.js';
import { randomIp } from '../../test/http-client.js';
import { parseExposition, sampleValue } from '../../test/metrics.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import { captchaAnswer } from './captcha-answer.js';

const serialize = responseSerializerOf(getCaptcha.response);

describe("a captcha's answer", () => {
  it("is the contract serializer's own bytes for the whole picture, in every language", () => {
    for (let i = 0; i < 200; i++) {
      const language = REQUEST_LANGUAGES[i % REQUEST_LANGUAGES.length]!;
      const { svgBase64 } = createCaptchaImage();
      const imgId = crypto.randomUUID();
      const envelope = {
        code: 0,
        msg: messageOf('OK', language),
        data: { imgId, imgDat: CAPTCHA_DATA_URI_PREFIX + svgBase64 },
      };
      const answer = captchaAnswer(language, imgId, svgBase64);
      expect(answer.equals(Buffer.from(serialize(envelope)))).toBe(true);
      expect(JSON.parse(answer.toString())).toEqual(envelope);
    }
  });
});

// The captcha is answered before Fastify routes it: the test counts the requests Fastify routed to it, and holds the
// early answer to the route's (`inject` goes through Fastify alone), but for the picture, new each time.
describe('captchas answered before routing', () => {
  let app: TestApp;
  const counter = routedUnder(getCaptcha.path);

  beforeAll(async () => {
    app = await startTestApp({ beforeListen: counter.hook });
  });
  afterAll(async () => {
    await app?.close();
  });

  it.each(REQUEST_LANGUAGES)(
    'answers a new captcha in %s as the route does, and keeps its answer',
    async (language) => {
      const headers = {
        'accept-language': language,
        'x-forwarded-for': randomIp(),
        'x-request-id': `captcha-${language}`,
      };
      const { routedByHttp, early, route } = await bothWays(app, counter, getCaptcha.path, headers);
      expect(routedByHttp).toBe(0);
      expect(early.status).toBe(200);
      const { 'content-length': earlyLength, ...earlyHeaders } = early.headers;
      const { 'content-length': routeLength, ...routeHeaders } = route.headers;
      expect(earlyHeaders).toEqual(routeHeaders);
      expect(Number(earlyLength)).toBe(early.body.length);
      expect(Number(routeLength)).toBe(route.body.length);
      for (const answer of [early, route]) {
        const body = JSON.parse(answer.body.toString());
        expect(z.parse(getCaptcha.response, body)).toEqual(body);
        expect(body.msg).toBe(messageOf('OK', language));
        expect(body.data.imgDat.startsWith(CAPTCHA_DATA_URI_PREFIX)).toBe(true);
        expect(Buffer.from(body.data.imgDat.slice(CAPTCHA_DATA_URI_PREFIX.length), 'base64').toString()).toMatch(
          /^<svg [^>]*>.*<\/svg>$/,
        );
        expect(await app.app.store.get(`captcha:${body.data.imgId}`)).toMatch(/^[a-z0-9]{4}$/);
      }
    },
  );

  it('counts its answers in the metrics under the route', async () => {
    const labels = { method: 'GET', route: getCaptcha.path, status: '200' };
    const countOf = async () =>
      sampleValue(parseExposition(await app.app.metrics.render()), 'mutenet_http_requests_total', labels);
    const before = await countOf();
    const routedBefore = counter.routed;
    expect((await request(`${app.url}${getCaptcha.path}?anything=1`, { 'x-forwarded-for': randomIp() })).status).toBe(
      200,
    );
    expect(counter.routed).toBe(routedBefore);
    expect(await countOf()).toBe(before + 1);
  });
});
