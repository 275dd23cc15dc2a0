import svgCaptcha from 'svg-captcha';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient } from '../../test/http-client.js';
import { CAPTCHA_TEST_CODE, startTestApp, type TestApp } from '../../test/test-app.js';
import { CAPTCHA_DATA_URI_PREFIX, CAPTCHA_LENGTH, drawCaptcha } from './captcha.js';

/** Letters and digits, less 0 o 1 i l I, which are easily taken for one another. */
const CAPTCHA_ALPHABET = 'ABCDEFGHJKLMNOPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789';

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

type Element = { name: string; attributes: Record<string, string>; depth: number };

/**
 * The picture's elements, parsed as XML strictly: elements with quoted attributes only, each attribute once, every
 * element closed in order, one root, and nothing (not even white space) outside the tags.
 */
function parseSvg(svg: string): Element[] {
  const tag = /<(\/?)([A-Za-z]+)((?:\s+[A-Za-z:-]+="[^"<&]*")*)\s*(\/?)>/y;
  const open: string[] = [];
  const elements: Element[] = [];
  while (tag.lastIndex < svg.length) {
    const at = tag.lastIndex;
    const match = tag.exec(svg);
    if (!match) throw new Error(`not XML at ${at}: ${svg.slice(at, at + 40)}`);
    const [, closing, name = '', attributeText = '', selfClosing] = match;
    if (closing) {
      if (open.pop() !== name || attributeText || selfClosing) throw new Error(`</${name}> closes nothing at ${at}`);
      continue;
    }
    if (open.length === 0 && elements.length > 0) throw new Error(`a second root element at ${at}`);
    const attributes = [...attributeText.matchAll(/([A-Za-z:-]+)="([^"]*)"/g)].map(([, key, value]) => [key, value]);
    const unique = Object.fromEntries(attributes) as Record<string, string>;
    if (Object.keys(unique).length !== attributes.length) throw new Error(`an attribute twice at ${at}`);
    elements.push({ name, attributes: unique, depth: open.length });
    if (!selfClosing) open.push(name);
  }
  if (open.length > 0) throw new Error(`<${open.join('>, <')}> not closed`);
  return elements;
}

/** The picture, checked for its structure: a 150 × 50 SVG with its background, then the glyphs and two noise lines. */
function readPicture(svg: string) {
  const [root, background, ...paths] = parseSvg(svg);
  expect(root).toMatchObject({ name: 'svg', depth: 0, attributes: { width: '150', height: '50' } });
  expect(background).toEqual({
    name: 'rect',
    depth: 1,
    attributes: { width: '100%', height: '100%', fill: '#f4f6f8' },
  });
  for (const path of paths) expect(path).toMatchObject({ name: 'path', depth: 1 });
  const glyphs = paths.filter(({ attributes }) => attributes.fill !== 'none');
  const lines = paths.filter(({ attributes }) => attributes.fill === 'none');
  expect(glyphs).toHaveLength(CAPTCHA_LENGTH);
  expect(lines).toHaveLength(2);
  return { glyphs, lines };
}

/** How many closed contours the captcha font draws a character with. */
function contoursOf(char: string): number {
  type Font = { charToGlyph(char: string): { getPath(...place: number[]): { commands: { type: string }[] } } };
  const font = (svgCaptcha.options as { font: Font }).font;
  return font
    .charToGlyph(char)
    .getPath(0, 0, 56)
    .commands.filter(({ type }) => type === 'Z').length;
}

/** The contours of each glyph, left to right (by the middle of its points across). */
function contoursLeftToRight(glyphs: Element[]): number[] {
  const placed = glyphs.map(({ attributes }) => {
    const numbers = (attributes.d!.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
    const xs = numbers.filter((_, i) => i % 2 === 0);
    return { x: (Math.min(...xs) + Math.max(...xs)) / 2, contours: (attributes.d!.match(/Z/g) ?? []).length };
  });
  return placed.sort((a, b) => a.x - b.x).map(({ contours }) => contours);
}

describe('the captcha picture', () => {
  it('takes its text from letters and digits less 0 o 1 i l I, each character as likely as the others', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      const { text } = drawCaptcha();
      expect(text).toMatch(/^[A-HJ-Za-hjkm-z2-9]{4}$/);
      for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    // 8,000 characters, about 143 of each: 70 or 230 would be more than six standard deviations out.
    expect(counts.size).toBe(CAPTCHA_ALPHABET.length);
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(70);
      expect(count).toBeLessThan(230);
    }
  });

  it('is a well-formed SVG: the background, a glyph for each character, and the noise lines', () => {
    for (let i = 0; i < 50; i++) {
      const { glyphs, lines } = readPicture(drawCaptcha().svg);
      for (const { attributes } of glyphs) expect(attributes.fill).toMatch(/^#[0-9a-f]{6}$/);
      for (const { attributes } of lines) expect(attributes.stroke).toMatch(/^#[0-9a-f]{6}$/);
    }
  });
});

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

  it('serves a picture of the answer it keeps, as a base64 SVG data: URI', async () => {
    for (let i = 0; i < 20; i++) {
      const { body } = await httpClient(app.url).get('/mutenet/verify/code/img');
      const answer = await app.app.store.get(`captcha:${body.data.imgId}`);
      // Kept in lower case (L and O are in the alphabet, so l and o can be in the answer).
      expect(answer).toHaveLength(CAPTCHA_LENGTH);
      for (const char of answer!) expect(CAPTCHA_ALPHABET.toLowerCase()).toContain(char);
      const imgDat = body.data.imgDat as string;
      expect(imgDat.startsWith(CAPTCHA_DATA_URI_PREFIX)).toBe(true);
      const base64 = imgDat.slice(CAPTCHA_DATA_URI_PREFIX.length);
      expect(base64).toMatch(/^[A-Za-z0-9+/]+=*$/);
      const { glyphs } = readPicture(Buffer.from(base64, 'base64').toString('utf8'));
      // Each glyph is the answer's character in its place, in one case or the other.
      const drawn = contoursLeftToRight(glyphs);
      for (const [at, char] of [...answer!].entries()) {
        expect([contoursOf(char), contoursOf(char.toUpperCase())]).toContain(drawn[at]);
      }
    }
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
