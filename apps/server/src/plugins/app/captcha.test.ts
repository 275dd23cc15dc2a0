import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient } from '../../test/http-client.js';
import { CAPTCHA_TEST_CODE, startTestApp, type TestApp } from '../../test/test-app.js';

let seq = 0;

/** A live captcha: its id, and the answer the picture shows (read from the store, as a person would read it). */
async function liveCaptcha(app: TestApp) {
  const { body } = await httpClient(app.url).get('/mutenet/verify/code/img');
  const imgId = body.data.imgId as string;
  const answer = await app.app.store.get(`captcha:${imgId}`);
  if (!answer) throw new Error('the captcha is not in the store');
  return { imgId, answer };
}

/** The envelope code of a call that checks the captcha first: 0 when it passed, 1011 when it did not. */
async function tryCaptcha(app: TestApp, imgId: string, imgCode: string): Promise<number> {
  const { body } = await httpClient(app.url).post('/mutenet/verify/code/email?action=register', {
    form: { imgId, imgCode, email: `captcha${++seq}@example.com` },
  });
  return body.code;
}

describe('captcha with CAPTCHA_TEST_CODE set', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('takes the test code as the answer to any live captcha, and still uses the captcha up', async () => {
    for (let i = 0; i < 3; i++) {
      const { imgId } = await liveCaptcha(app);
      expect(await tryCaptcha(app, imgId, CAPTCHA_TEST_CODE)).toBe(0);
      expect(await tryCaptcha(app, imgId, CAPTCHA_TEST_CODE)).toBe(1011);
      expect(await app.app.store.get(`captcha:${imgId}`)).toBeNull();
    }
  });

  it('takes the real answer too, in any case and with spaces around it', async () => {
    const plain = await liveCaptcha(app);
    expect(await tryCaptcha(app, plain.imgId, plain.answer)).toBe(0);
    const shouted = await liveCaptcha(app);
    expect(await tryCaptcha(app, shouted.imgId, `  ${shouted.answer.toUpperCase()} `)).toBe(0);
  });

  it('takes the test code only as it is written', async () => {
    for (const near of [CAPTCHA_TEST_CODE.toUpperCase(), `${CAPTCHA_TEST_CODE}x`, CAPTCHA_TEST_CODE.slice(1)]) {
      const { imgId } = await liveCaptcha(app);
      expect(await tryCaptcha(app, imgId, near)).toBe(1011);
    }
  });
});

describe('captcha without CAPTCHA_TEST_CODE', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { CAPTCHA_TEST_CODE: '' } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('refuses the test code, and takes only the real answer', async () => {
    expect(app.config.captchaTestCode).toBeUndefined();
    const { imgId, answer } = await liveCaptcha(app);
    expect(await tryCaptcha(app, imgId, CAPTCHA_TEST_CODE)).toBe(1011);
    // The wrong answer used it up.
    expect(await tryCaptcha(app, imgId, answer)).toBe(1011);
    const next = await liveCaptcha(app);
    expect(await tryCaptcha(app, next.imgId, next.answer)).toBe(0);
  });
});
