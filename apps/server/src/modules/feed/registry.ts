/** Each format's renderer and file extension, and the headers every format carries. */
import type { ResolvedProxy } from '../nodes/proxy.model.js';
import type { FeedFormat, FeedInput, FeedRenderContext, PartsJoin, RenderedFeed } from './feed-format.js';
import { renderClash } from './formats/clash.js';
import { renderShareLinks, SHARE_LINKS_JOIN, shareLink } from './formats/share-links.js';
import { renderSingBox, singBoxFeatures } from './formats/sing-box.js';

export type FeedRenderer = {
  render(input: FeedInput, context: FeedRenderContext): RenderedFeed;
  /** What of the context the body depends on: two contexts of one variant give the same body. */
  variant(context: FeedRenderContext): string;
  /** When the body is one part per node, each made from that node alone: the part, and how the parts are joined. */
  perNode?: { part(proxy: ResolvedProxy): string; join: PartsJoin };
  fileExtension: string;
};

export const FEED_FORMATS: Record<FeedFormat, FeedRenderer> = {
  'share-links': {
    render: (input) => renderShareLinks(input),
    variant: () => '',
    perNode: { part: shareLink, join: SHARE_LINKS_JOIN },
    fileExtension: 'txt',
  },
  clash: { render: (input) => renderClash(input), variant: () => '', fileExtension: 'yaml' },
  'sing-box': {
    render: (input, context) => renderSingBox(input, context.singBoxVersion),
    variant: (context) => JSON.stringify(singBoxFeatures(context.singBoxVersion)),
    fileExtension: 'json',
  },
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
  const titled = headersOfTitle(input.title, options.filename, options.updateIntervalHours);
  // One literal, of one shape on every fetch, which the answer adds its own headers to: built by spreads, the headers
  // made the answer's writer, which reads them by name, miss V8's inline caches on every fetch.
  return {
    'subscription-userinfo': `upload=${whole(upload)}; download=${whole(download)}; total=${whole(total)}; expire=${whole(expire)}`,
    'profile-update-interval': titled['profile-update-interval'],
    'content-disposition': titled['content-disposition'],
    'profile-title': titled['profile-title'],
  };
}

/** The headers that follow from the title, file name and interval alone. */
type TitleHeaders = Readonly<Record<'profile-update-interval' | 'content-disposition' | 'profile-title', string>>;
/** Those headers, by title, file name and interval. */
const titleHeaders = new Map<string, TitleHeaders>();
/** One title a service, a file name a format: a change of title brings a few more. */
const TITLE_HEADERS_KEPT = 64;

/** The headers of a title, file name and interval: worked out once for each, not on every fetch. */
function headersOfTitle(title: string, filename: string, updateIntervalHours: number): TitleHeaders {
  const key = `${updateIntervalHours}\n${filename}\n${title}`;
  let headers = titleHeaders.get(key);
  if (!headers) {
    const safeName = headerSafe(filename) || 'subscription';
    headers = {
      'profile-update-interval': String(Math.max(1, Math.round(finite(updateIntervalHours)))),
      'content-disposition': `attachment; filename="${asciiFallback(safeName)}"; filename*=UTF-8''${rfc8187(safeName)}`,
      'profile-title': `base64:${Buffer.from(headerSafe(title), 'utf8').toString('base64')}`,
    };
    if (titleHeaders.size >= TITLE_HEADERS_KEPT) titleHeaders.clear();
    titleHeaders.set(key, headers);
  }
  return headers;
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
