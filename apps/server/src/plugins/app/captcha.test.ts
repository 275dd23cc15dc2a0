import svgCaptcha from 'svg-captcha';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient } from '../../test/http-client.js';
import { CAPTCHA_TEST_CODE, startTestApp, type TestApp } from '../../test/test-app.js';
import {
  CAPTCHA_ALPHABET,
  CAPTCHA_DATA_URI_PREFIX,
  CAPTCHA_LENGTH,
  CAPTCHA_NOISE_LINES,
  createCaptchaImage,
} from './captcha-image.js';

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

/**
 * The points a path's data goes through, made absolute as a renderer does (`M`, `C` absolute; `l`, `q` relative to
 * where they start; `z` back to the contour's start; a command repeats while numbers follow), and its contours. Only
 * the commands the captcha writes are understood: anything else, or a command short of numbers, throws.
 */
function pathPoints(d: string): { points: [number, number][]; closes: number } {
  const arity: Record<string, number> = { M: 2, C: 6, l: 2, q: 4, z: 0 };
  const tokens = d.match(/[A-Za-z]|-?\d+|[ ,]+/g) ?? [];
  if (tokens.join('') !== d) throw new Error(`path data with something else in it: ${d.slice(0, 60)}`);
  const points: [number, number][] = [];
  let closes = 0;
  let command = '';
  let numbers: number[] = [];
  let current: [number, number] = [0, 0];
  let start: [number, number] = [0, 0];
  for (const token of tokens) {
    if (/^[ ,]+$/.test(token)) continue;
    if (/^[A-Za-z]$/.test(token)) {
      if (numbers.length > 0) throw new Error(`${command} short of numbers in ${d.slice(0, 60)}`);
      command = token;
      if (arity[command] === undefined) throw new Error(`command ${command} in ${d.slice(0, 60)}`);
      if (command === 'z') {
        closes++;
        current = start;
      }
      continue;
    }
    numbers.push(Number(token));
    if (numbers.length < arity[command]!) continue;
    const pairs: [number, number][] = [];
    for (let i = 0; i < numbers.length; i += 2) pairs.push([numbers[i]!, numbers[i + 1]!]);
    const relative = command === 'l' || command === 'q';
    const [x0, y0] = current;
    for (const [x, y] of pairs) points.push(relative ? [x0 + x, y0 + y] : [x, y]);
    current = points[points.length - 1]!;
    if (command === 'M') start = current;
    numbers = [];
  }
  if (numbers.length > 0) throw new Error(`${command} short of numbers at the end of ${d.slice(0, 60)}`);
  return { points, closes };
}

const fontOutlines = new Map<string, { points: number; closes: number }>();

/**
 * The font's outline of a character, as svg-captcha's font draws it: how many points, and how many contours. A line
 * to where the pen already is draws nothing, and is not counted.
 */
function fontOutline(char: string): { points: number; closes: number } {
  const known = fontOutlines.get(char);
  if (known) return known;
  type Command = { type: string; x?: number; y?: number };
  type Font = { charToGlyph(char: string): { getPath(...place: number[]): { commands: Command[] } } };
  const font = (svgCaptcha.options as { font: Font }).font;
  const commands = font.charToGlyph(char).getPath(0, 0, 56).commands;
  let points = 0;
  let pen: Command | undefined;
  let contourStart: Command | undefined;
  for (const command of commands) {
    if (command.type === 'Z') {
      pen = contourStart;
      continue;
    }
    if (command.type === 'L' && pen && command.x === pen.x && command.y === pen.y) continue;
    points += command.type === 'Q' ? 2 : 1;
    pen = command;
    if (command.type === 'M') contourStart = command;
  }
  const outline = { points, closes: commands.filter(({ type }) => type === 'Z').length };
  fontOutlines.set(char, outline);
  return outline;
}

function svgOf(base64: string): string {
  expect(base64).toMatch(/^[A-Za-z0-9+/]+=*$/);
  return Buffer.from(base64, 'base64').toString('latin1');
}

/** The picture, checked for its structure: a 150 × 50 SVG with its background, then the glyphs and noise lines. */
function readPicture(svgBase64: string) {
  const [root, background, ...paths] = parseSvg(svgOf(svgBase64));
  expect(root).toEqual({
    name: 'svg',
    depth: 0,
    attributes: { xmlns: 'http://www.w3.org/2000/svg', width: '150', height: '50', viewBox: '0 0 1500 500' },
  });
  expect(background).toEqual({
    name: 'rect',
    depth: 1,
    attributes: { width: '100%', height: '100%', fill: '#f4f6f8' },
  });
  for (const path of paths) expect(path).toMatchObject({ name: 'path', depth: 1 });
  const glyphs = paths.filter(({ attributes }) => attributes.fill !== 'none');
  const lines = paths.filter(({ attributes }) => attributes.fill === 'none');
  for (const { attributes } of glyphs) expect(Object.keys(attributes).sort()).toEqual(['d', 'fill']);
  for (const { attributes } of lines) {
    expect(Object.keys(attributes).sort()).toEqual(['d', 'fill', 'stroke', 'stroke-width']);
    expect(attributes['stroke-width']).toBe('10');
  }
  expect(glyphs).toHaveLength(CAPTCHA_LENGTH);
  expect(lines).toHaveLength(CAPTCHA_NOISE_LINES);
  return { paths, glyphs, lines };
}

/** Where svg-captcha centres the glyph in each slot, in px. */
const SLOT_CENTRES = Array.from(
  { length: CAPTCHA_LENGTH },
  (_, slot) => ((150 - 2) / (CAPTCHA_LENGTH + 1)) * (slot + 1),
);

/**
 * The slot a glyph is drawn in, from the middle of its points across: within 12 px of the slot's centre (the ink of
 * some glyphs, as j, sits up to 9 px to one side; slots are 29.6 px apart).
 */
function slotOf(points: [number, number][]): number {
  const xs = points.map(([x]) => x / 10);
  const middle = (Math.min(...xs) + Math.max(...xs)) / 2;
  const slot = SLOT_CENTRES.findIndex((centre) => Math.abs(middle - centre) < 12);
  expect(slot, `a glyph centred at ${middle} px is in no slot`).toBeGreaterThanOrEqual(0);
  return slot;
}

/** Each glyph's slot (from where its points are) and drawing (its path data without the first move's numbers). */
function glyphsBySlot(svgBase64: string, text: string) {
  const { glyphs } = readPicture(svgBase64);
  const bySlot = new Map<number, { d: string; shape: string }>();
  for (const { attributes } of glyphs) {
    const d = attributes.d!;
    const { points, closes } = pathPoints(d);
    const slot = slotOf(points);
    expect(bySlot.has(slot), `two glyphs in slot ${slot}`).toBe(false);
    // The glyph in a slot is the text's character there: the font's outline of it, point for point.
    expect({ points: points.length, closes }).toEqual(fontOutline(text[slot]!));
    const xs = points.map(([x]) => x / 10);
    const ys = points.map(([, y]) => y / 10);
    // In the picture, but for a few px of turned and scaled ink, and of curves' control points (in 50,000 pictures:
    // x from -0.1 to 144.7 px, y from 1.0 to 57.2).
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(-10);
    expect(Math.max(...xs)).toBeLessThanOrEqual(160);
    expect(Math.min(...ys)).toBeGreaterThanOrEqual(-10);
    expect(Math.max(...ys)).toBeLessThanOrEqual(62);
    bySlot.set(slot, { d, shape: d.replace(/^M-?\d+[ -]?-?\d+/, '') });
  }
  return bySlot;
}

describe('the captcha picture', () => {
  it('takes its text from letters and digits less 0 o 1 i l I, each character as likely as the others', () => {
    expect(CAPTCHA_ALPHABET).toBe('ABCDEFGHJKLMNOPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789');
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      const { text } = createCaptchaImage();
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

  it('is a well-formed SVG: the background, the text as glyph paths in their slots, and the noise lines', () => {
    for (let i = 0; i < 200; i++) {
      const { text, svgBase64 } = createCaptchaImage();
      expect(glyphsBySlot(svgBase64, text).size).toBe(CAPTCHA_LENGTH);
      const { glyphs, lines } = readPicture(svgBase64);
      for (const { attributes } of glyphs) expect(attributes.fill).toMatch(/^#[0-9a-f]{6}$/);
      for (const { attributes } of lines) {
        expect(attributes.stroke).toMatch(/^#[0-9a-f]{6}$/);
        const { points, closes } = pathPoints(attributes.d!);
        expect(attributes.d).toMatch(/^M\d+ \d+C\d+ \d+ \d+ \d+ \d+ \d+$/);
        expect({ points: points.length, closes }).toEqual({ points: 4, closes: 0 });
        // From near the left edge to near the right one.
        expect(points[0]![0]).toBeLessThanOrEqual(210);
        expect(points[3]![0]).toBeGreaterThanOrEqual(1290);
      }
      expect(svgOf(svgBase64).length).toBeLessThan(8000);
    }
  });

  it('draws a character anew each time: no two drawings of it share their numbers, even moved to one place', () => {
    const drawings = new Map<string, { d: string; shape: string }[]>();
    for (let i = 0; i < 300; i++) {
      const { text, svgBase64 } = createCaptchaImage();
      for (const [slot, drawing] of glyphsBySlot(svgBase64, text)) {
        const char = text[slot]!;
        drawings.set(char, [...(drawings.get(char) ?? []), drawing]);
      }
    }
    let compared = 0;
    for (const [char, list] of drawings) {
      expect(new Set(list.map(({ shape }) => shape)).size, `two drawings of ${char} alike`).toBe(list.length);
      const [first, second] = list;
      if (!first || !second) continue;
      // Point by point, almost every relative move differs (the turn, the scale and the jitter).
      const firstNumbers = first.shape.match(/-?\d+/g)!;
      const secondNumbers = second.shape.match(/-?\d+/g)!;
      const same = firstNumbers.filter((number, i) => number === secondNumbers[i]).length;
      expect(same / firstNumbers.length, `drawings of ${char}`).toBeLessThan(0.5);
      compared++;
    }
    expect(compared).toBeGreaterThan(40);
  });

  it('varies the colours and the order of the glyphs and the lines', () => {
    const fills = new Set<string>();
    const lineFirst = new Set<boolean>();
    for (let i = 0; i < 100; i++) {
      const { paths, glyphs } = readPicture(createCaptchaImage().svgBase64);
      for (const { attributes } of glyphs) fills.add(attributes.fill!);
      lineFirst.add(paths[0]!.attributes.fill === 'none');
    }
    expect(fills.size).toBeGreaterThan(300);
    expect(lineFirst).toEqual(new Set([true, false]));
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
      // Each glyph is the answer's character in its slot, in one case or the other.
      const imgDat = body.data.imgDat as string;
      expect(imgDat.startsWith(CAPTCHA_DATA_URI_PREFIX)).toBe(true);
      for (const { attributes } of readPicture(imgDat.slice(CAPTCHA_DATA_URI_PREFIX.length)).glyphs) {
        const { points, closes } = pathPoints(attributes.d!);
        const char = answer![slotOf(points)]!;
        expect([fontOutline(char), fontOutline(char.toUpperCase())]).toContainEqual({ points: points.length, closes });
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
