import { randomFillSync } from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import { digitCount, writeDigitsBefore } from '../../lib/decimal-digits.js';

/**
 * The captcha picture: svg-captcha's look (its font, size, colours and noise lines), drawn at a fraction of its cost.
 * svg-captcha asks the font for each glyph's outline and formats every coordinate with toFixed on every request; here
 * the outlines are read from the font once, and a request only moves each point (the glyph's own random turn, scale
 * and shift, then a random jitter of each coordinate) and writes it as a whole number of tenths of a pixel, as bytes.
 * Every number in a picture is thus new: no glyph's path can be matched against one seen before. All the randomness
 * comes from the crypto generator, so nothing in one picture tells anything of the next.
 */

/** Letters and digits, less those easily taken for one another (svg-captcha's `ignoreChars: '0o1ilI'`). */
export const CAPTCHA_ALPHABET = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789']
  .filter((char) => !'0o1ilI'.includes(char))
  .join('');
export const CAPTCHA_LENGTH = 4;
export const CAPTCHA_NOISE_LINES = 2;
const WIDTH = 150;
const HEIGHT = 50;
const BACKGROUND = '#f4f6f8';
/** svg-captcha's default: the glyphs fill the picture's height. */
const FONT_SIZE = 56;
/**
 * How far (px) the glyphs sit above svg-captcha's places, which leave their ink 8 px low (12.6 to 53.9 px down a 50 px
 * picture): descenders were cut off, and would be more so when turned and scaled.
 */
const LIFT = 4;
/** Coordinates are whole tenths of a pixel (the viewBox is ten times the picture): quicker to write than decimals. */
const UNIT = 10;
/** How far, in px, each coordinate moves at random either way (svg-captcha moves each point up to 0.1 px). */
const JITTER = 0.25;
/** Each glyph's random turn (radians), scale and shift (px) either way, from svg-captcha's fixed places. */
const TURN = 0.2;
const SCALE = 0.1;
const SHIFT_X = 2;
const SHIFT_Y = 3;

/** Random bytes from the crypto generator, taken from a pool that is refilled when used up. */
class RandomBytes {
  readonly pool = new Uint8Array(16384);
  private at = this.pool.length;

  /** Takes the next n bytes (n at most the pool's size): where they start in the pool, valid until the next call. */
  take(n: number): number {
    if (this.at + n > this.pool.length) {
      randomFillSync(this.pool);
      this.at = 0;
    }
    this.at += n;
    return this.at - n;
  }

  byte(): number {
    return this.pool[this.take(1)]!;
  }

  /** A whole number in [0, n), n ≤ 256, without bias. */
  below(n: number): number {
    const limit = 256 - (256 % n);
    for (;;) {
      const byte = this.byte();
      if (byte < limit) return byte % n;
    }
  }

  /** A number in [min, max], in 65,536 steps. */
  between(min: number, max: number): number {
    const at = this.take(2);
    return min + ((this.pool[at]! * 256 + this.pool[at + 1]!) / 65535) * (max - min);
  }
}

/**
 * Writes a whole number below a million either way at `at`, after a space if `separate` and no minus sign sets it
 * apart; returns where it ends.
 */
function writeNumber(bytes: Uint8Array, at: number, n: number, separate: boolean): number {
  if (n < 0) {
    bytes[at++] = 0x2d;
    n = -n;
  } else if (separate) {
    bytes[at++] = 0x20;
  }
  const end = at + digitCount(n);
  writeDigitsBefore(bytes, end, n);
  return end;
}

/** The picture being written, as ASCII bytes. */
class SvgBytes {
  readonly bytes: Buffer;
  at = 0;

  constructor(size: number) {
    this.bytes = Buffer.alloc(size);
  }

  text(text: Uint8Array): void {
    this.bytes.set(text, this.at);
    this.at += text.length;
  }

  number(n: number, separate: boolean): void {
    this.at = writeNumber(this.bytes, this.at, n, separate);
  }

  /** `rrggbb` of a random colour as svg-captcha picks them: any hue, saturation 60–80 %, lightness in the range. */
  colour(random: RandomBytes, minLightness: number, maxLightness: number): void {
    const hue = random.between(0, 1);
    const saturation = random.between(0.6, 0.8);
    const lightness = random.between(minLightness, maxLightness);
    const q = lightness < 0.5 ? lightness * (1 + saturation) : lightness + saturation - lightness * saturation;
    const p = 2 * lightness - q;
    for (const offset of CHANNEL_HUES) {
      const channel = Math.floor(hueToChannel(p, q, (hue + offset + 1) % 1) * 255);
      this.bytes[this.at++] = HEX[channel >> 4]!;
      this.bytes[this.at++] = HEX[channel & 15]!;
    }
  }
}

/** Where red, green and blue sit from the hue, as fractions of the colour wheel. */
const CHANNEL_HUES = [1 / 3, 0, -1 / 3];

function hueToChannel(p: number, q: number, hue: number): number {
  if (hue < 1 / 6) return p + (q - p) * 6 * hue;
  if (hue < 1 / 2) return q;
  if (hue < 2 / 3) return p + (q - p) * (2 / 3 - hue) * 6;
  return p;
}

const ascii = (text: string) => Buffer.from(text, 'latin1');
const HEX = ascii('0123456789abcdef');
const SVG_HEAD = ascii(
  `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH * UNIT} ${HEIGHT * UNIT}">` +
    `<rect width="100%" height="100%" fill="${BACKGROUND}"/>`,
);
const SVG_TAIL = ascii('</svg>');
const GLYPH_HEAD = ascii('<path fill="#');
const GLYPH_DATA = ascii('" d="');
const LINE_HEAD = ascii('<path d="M');
const LINE_CURVE = ascii('C');
const LINE_TAIL = ascii(`" fill="none" stroke-width="${UNIT}" stroke="#`);
const PATH_TAIL = ascii('"/>');
/** The most bytes a number takes: a sign or a space, then at most 6 digits. */
const NUMBER_BYTES = 7;

/** The parts of an opentype.js font, and of the paths it draws, that the outlines are read from. */
interface OpentypeFont {
  unitsPerEm: number;
  ascender: number;
  descender: number;
  charToGlyph(char: string): {
    advanceWidth?: number;
    getPath(x: number, y: number, fontSize: number): { commands: PathCommand[] };
  };
}
interface PathCommand {
  type: string;
  x?: number;
  y?: number;
  x1?: number;
  y1?: number;
}

/**
 * A glyph where svg-captcha puts it, relative to its place's centre, in tenths of a pixel, as a list of points ready
 * to be written: each point's path-data letters (if any) and the point its coordinates are relative to.
 */
interface Outline {
  /** x then y of each point. */
  points: Float64Array;
  /** The letters before each point, up to two (`zM`) in one number, first letter lowest; 0 for none. */
  letters: Uint16Array;
  /** The point each point is written relative to, or -1 to write it as it is (a move). */
  from: Int16Array;
  /** The letter after the last point (`z`), or 0. */
  end: number;
}

const PATH_LETTER: Record<string, number> = { M: 0x4d, L: 0x6c, Q: 0x71 };
const CLOSE_LETTER = 0x7a;

/**
 * The glyph's outline where svg-captcha puts it: opentype.js's path for it, drawn from (-width / 2, height / 2) at
 * FONT_SIZE. Lines and curves (`l`, `q`) are written relative to where they start, which keeps the numbers short;
 * moves as they are (`M`). A command's letter is written only when the command changes (a move's always: points
 * after a move's letter would be lines). A line to where the pen already is draws nothing and is left out: the font
 * follows each curve with two (48 % of its points), which the jitter would turn into specks of zigzag.
 */
function readOutline(font: OpentypeFont, char: string): Outline {
  const glyph = font.charToGlyph(char);
  const scale = FONT_SIZE / font.unitsPerEm;
  const width = (glyph.advanceWidth ?? 0) * scale;
  const height = (font.ascender + font.descender) * scale;
  const points: number[] = [];
  const letters: number[] = [];
  const from: number[] = [];
  /** A `z` not yet written. */
  let pending = 0;
  let previousType = '';
  /** The point where the pen is, and where the contour began. */
  let current = -1;
  let start = -1;
  for (const { type, x = 0, y = 0, x1 = 0, y1 = 0 } of glyph.getPath(-width / 2, height / 2, FONT_SIZE).commands) {
    const standsStill = type === 'L' && points[2 * current] === x * UNIT && points[2 * current + 1] === y * UNIT;
    if (standsStill) continue;
    if (type === 'Z') {
      pending = CLOSE_LETTER;
      current = start;
    } else {
      const letter = PATH_LETTER[type];
      if (letter === undefined || (type !== 'M' && current < 0)) {
        throw new Error(`captcha font: the glyph ${char} has a path (${type}) that the captcha cannot draw`);
      }
      const written = type === 'M' || type !== previousType ? letter : 0;
      const commandLetters = pending === 0 ? written : pending | (written << 8);
      pending = 0;
      const relativeTo = type === 'M' ? -1 : current;
      const commandPoints = type === 'Q' ? [x1, y1, x, y] : [x, y];
      for (let i = 0; i < commandPoints.length; i += 2) {
        letters.push(i === 0 ? commandLetters : 0);
        from.push(relativeTo);
        points.push(commandPoints[i]! * UNIT, commandPoints[i + 1]! * UNIT);
      }
      current = from.length - 1;
      if (type === 'M') start = current;
    }
    previousType = type;
  }
  return {
    points: Float64Array.from(points),
    letters: Uint16Array.from(letters),
    from: Int16Array.from(from),
    end: pending,
  };
}

// svg-captcha loads the font it ships (with opentype.js) when imported, and keeps it in its options.
const font = (svgCaptcha.options as { font?: OpentypeFont }).font;
if (!font) throw new Error('svg-captcha did not load its font');
const outlines = [...CAPTCHA_ALPHABET].map((char) => readOutline(font, char));
const mostPoints = Math.max(...outlines.map((outline) => outline.from.length));

// The pool, the placed points and the picture are shared by all requests: a captcha is drawn in one synchronous call.
const random = new RandomBytes();
/** The glyph being drawn, its points placed: x then y, in whole tenths of a pixel. */
const placed = new Int32Array(2 * mostPoints);
/** Room for the largest picture: its fixed text, and for each number and letter the most bytes it can take. */
const svg = new SvgBytes(
  SVG_HEAD.length +
    CAPTCHA_NOISE_LINES *
      (LINE_HEAD.length + LINE_CURVE.length + 8 * NUMBER_BYTES + LINE_TAIL.length + 6 + PATH_TAIL.length) +
    CAPTCHA_LENGTH *
      (GLYPH_HEAD.length + 6 + GLYPH_DATA.length + mostPoints * (2 + 2 * NUMBER_BYTES) + 1 + PATH_TAIL.length) +
    SVG_TAIL.length,
);

/**
 * A glyph centred on (centreX, centreY) in tenths of a pixel, turned and scaled by (cos, sin) (those of the angle,
 * times the scale), each coordinate jittered.
 */
function drawGlyph(outline: Outline, centreX: number, centreY: number, cos: number, sin: number): void {
  const { points, letters, from } = outline;
  const count = from.length;
  const pool = random.pool;
  const jitter = random.take(2 * count);
  const jitterStep = (2 * JITTER * UNIT) / 255;
  // Math.floor of x + 0.5 rounds: V8 runs it several times faster than Math.round here.
  const left = centreX - JITTER * UNIT + 0.5;
  const top = centreY - JITTER * UNIT + 0.5;
  for (let i = 0; i < 2 * count; i += 2) {
    const x = points[i]!;
    const y = points[i + 1]!;
    placed[i] = Math.floor(left + cos * x - sin * y + pool[jitter + i]! * jitterStep);
    placed[i + 1] = Math.floor(top + sin * x + cos * y + pool[jitter + i + 1]! * jitterStep);
  }
  const bytes = svg.bytes;
  let at = svg.at;
  for (let point = 0; point < count; point++) {
    const pointLetters = letters[point]!;
    if (pointLetters !== 0) {
      bytes[at++] = pointLetters & 0xff;
      if (pointLetters > 0xff) bytes[at++] = pointLetters >> 8;
    }
    const relativeTo = from[point]!;
    let x = placed[2 * point]!;
    let y = placed[2 * point + 1]!;
    if (relativeTo >= 0) {
      x -= placed[2 * relativeTo]!;
      y -= placed[2 * relativeTo + 1]!;
    }
    at = writeNumber(bytes, at, x, pointLetters === 0);
    at = writeNumber(bytes, at, y, true);
  }
  if (outline.end !== 0) bytes[at++] = outline.end;
  svg.at = at;
}

/** A random position between min and max px, in whole tenths of a pixel. */
function tenthsBetween(min: number, max: number): number {
  return Math.floor(random.between(min, max) * UNIT + 0.5);
}

/** A noise line as svg-captcha draws them: a curve from near the left edge to near the right one, through the middle. */
function drawNoiseLine(): void {
  svg.text(LINE_HEAD);
  svg.number(tenthsBetween(1, 21), false);
  svg.number(tenthsBetween(1, HEIGHT - 1), true);
  svg.text(LINE_CURVE);
  svg.number(tenthsBetween(WIDTH / 2 - 21, WIDTH / 2 + 21), false);
  svg.number(tenthsBetween(1, HEIGHT - 1), true);
  svg.number(tenthsBetween(WIDTH / 2 - 21, WIDTH / 2 + 21), true);
  svg.number(tenthsBetween(1, HEIGHT - 1), true);
  svg.number(tenthsBetween(WIDTH - 21, WIDTH - 1), true);
  svg.number(tenthsBetween(1, HEIGHT - 1), true);
  svg.text(LINE_TAIL);
  // svg-captcha's lightness without a background: the lines come out a little lighter than the glyphs.
  svg.colour(random, 0.55, 0.75);
  svg.text(PATH_TAIL);
}

/** What the picture's `data:` URI starts with; its base64 follows. */
export const CAPTCHA_DATA_URI_PREFIX = 'data:image/svg+xml;base64,';

/**
 * A new captcha: its text (CAPTCHA_LENGTH characters of CAPTCHA_ALPHABET) and its picture, an SVG document in base64
 * (a `data:` URI's after CAPTCHA_DATA_URI_PREFIX). Each glyph is in svg-captcha's place for it, moved, turned and
 * scaled at random; the glyphs and the noise lines are drawn in random order.
 */
export function createCaptchaImage(): { text: string; svgBase64: string } {
  let text = '';
  const chars: number[] = [];
  for (let i = 0; i < CAPTCHA_LENGTH; i++) {
    const char = random.below(CAPTCHA_ALPHABET.length);
    chars.push(char);
    text += CAPTCHA_ALPHABET[char];
  }
  // Elements below CAPTCHA_LENGTH are the glyphs, the others noise lines; shuffled (Fisher–Yates).
  const order: number[] = [];
  for (let i = 0; i < CAPTCHA_LENGTH + CAPTCHA_NOISE_LINES; i++) order.push(i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = random.below(i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const spacing = (WIDTH - 2) / (CAPTCHA_LENGTH + 1);
  svg.at = 0;
  svg.text(SVG_HEAD);
  for (const element of order) {
    if (element >= CAPTCHA_LENGTH) {
      drawNoiseLine();
      continue;
    }
    svg.text(GLYPH_HEAD);
    // svg-captcha's lightness on the background #f4f6f8 (lightness 0.96): 0.25 to 0.45 below it.
    svg.colour(random, 0.51, 0.71);
    svg.text(GLYPH_DATA);
    const turn = random.between(-TURN, TURN);
    const scale = random.between(1 - SCALE, 1 + SCALE);
    drawGlyph(
      outlines[chars[element]!]!,
      (spacing * (element + 1) + random.between(-SHIFT_X, SHIFT_X)) * UNIT,
      (HEIGHT / 2 - LIFT + random.between(-SHIFT_Y, SHIFT_Y)) * UNIT,
      scale * Math.cos(turn),
      scale * Math.sin(turn),
    );
    svg.text(PATH_TAIL);
  }
  svg.text(SVG_TAIL);
  return { text, svgBase64: svg.bytes.toString('base64', 0, svg.at) };
}
