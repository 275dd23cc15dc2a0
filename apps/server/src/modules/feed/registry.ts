/** Each format's renderer and file extension, and the headers every format carries. */
import type { FeedFormat, FeedInput, FeedRenderContext, RenderedFeed } from './feed-format.js';
import { renderClash } from './formats/clash.js';
import { renderShareLinks } from './formats/share-links.js';
import { renderSingBox } from './formats/sing-box.js';

export type FeedRenderer = {
  render(input: FeedInput, context: FeedRenderContext): RenderedFeed;
  fileExtension: string;
};

export const FEED_FORMATS: Record<FeedFormat, FeedRenderer> = {
  'share-links': { render: (input) => renderShareLinks(input), fileExtension: 'txt' },
  clash: { render: (input) => renderClash(input), fileExtension: 'yaml' },
  'sing-box': { render: (input, context) => renderSingBox(input, context.singBoxVersion), fileExtension: 'json' },
};

/** A download's file name: the title, without what a file name or a header cannot hold, and the format's extension. */
export function feedFilename(title: string, format: FeedFormat): string {
  const base =
    headerSafe(title)
      .replace(/[/\\:*?"<>|]/g, '_')
      .trim() || 'subscription';
  return `${base}.${FEED_FORMATS[format].fileExtension}`;
}

/**
 * The headers clients read on every format:
 * - `subscription-userinfo: upload=U; download=D; total=T; expire=E`: whole bytes and epoch seconds, `expire=0` when
 *   there is none, no trailing `;` (the form v2rayN, Clash Verge, FlClash, sing-box and Shadowrocket parse);
 * - `profile-update-interval`: whole hours, at least 1;
 * - `content-disposition`: an ASCII `filename` for old readers and the UTF-8 `filename*` (RFC 6266, RFC 8187);
 * - `profile-title`: `base64:` and the standard base64 of the UTF-8 title, so any title survives the header.
 */
export function feedHeaders(
  input: Pick<FeedInput, 'usage' | 'title'>,
  options: { filename: string; updateIntervalHours: number },
): Record<string, string> {
  const { upload, download, total, expire } = input.usage;
  const filename = headerSafe(options.filename) || 'subscription';
  return {
    'subscription-userinfo': `upload=${whole(upload)}; download=${whole(download)}; total=${whole(total)}; expire=${whole(expire)}`,
    'profile-update-interval': String(Math.max(1, Math.round(finite(options.updateIntervalHours)))),
    'content-disposition': `attachment; filename="${asciiFallback(filename)}"; filename*=UTF-8''${rfc8187(filename)}`,
    'profile-title': `base64:${Buffer.from(headerSafe(input.title), 'utf8').toString('base64')}`,
  };
}

function finite(value: number): number {
  return Number.isFinite(value) ? value : 0;
}

/** A non-negative integer in plain digits, never in exponent notation. */
function whole(value: number): string {
  const integer = Math.max(0, Math.floor(finite(value)));
  // Above 2^53 a number is written rounded to its shortest form (and from 10^21 in exponent notation): as a BigInt,
  // every digit of its value.
  return Number.isSafeInteger(integer) ? String(integer) : BigInt(integer).toString();
}

/** Control characters end a header or split it: they never reach one. */
function headerSafe(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  return text.replace(/[\u0000-\u001f\u007f]/g, '').trim();
}

/** Printable ASCII only, and no quote or backslash inside the quoted string. */
function asciiFallback(filename: string): string {
  return filename.replace(/[^\u0020-\u007e]|["\\]/g, '_');
}

/** RFC 8187 value-chars: attr-char as is, everything else percent-encoded from UTF-8. */
function rfc8187(filename: string): string {
  return encodeURIComponent(filename).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}
