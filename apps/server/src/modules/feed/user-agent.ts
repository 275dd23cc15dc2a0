/**
 * Which format a request gets: `?flag=` first, then the User-Agent, matched against one table of rules; everything
 * unknown gets the share-link list. Pure functions of the request's strings.
 */
import type { FeedFormat, SingBoxVersion } from './feed-format.js';

export type UserAgentRule = { client: string; pattern: RegExp; format: FeedFormat };

/**
 * The first matching rule wins, so the order settles User-Agents that name several cores:
 * Hiddify's says `like ClashMeta v2ray sing-box` and is sing-box (its core is sing-box, and it reads a sing-box
 * configuration's outbounds); NekoBox's says `Prefer ClashMeta Format` and gets the mihomo profile it asks for.
 * The share-link clients are listed so that a request is known to come from a client (see `isBrowserRequest`).
 */
export const USER_AGENT_RULES: readonly UserAgentRule[] = [
  { client: 'Hiddify', pattern: /hiddify/i, format: 'sing-box' },
  { client: 'Karing', pattern: /karing/i, format: 'sing-box' },
  {
    client: 'sing-box for Android, iOS, macOS, Apple TV',
    pattern: /(?:^|[^A-Za-z0-9])SF[AIMT]\/\d/,
    format: 'sing-box',
  },
  { client: 'Clash Verge', pattern: /clash-verge/i, format: 'clash' },
  { client: 'Clash.Meta, Clash Meta for Android', pattern: /clash[.\- ]?meta/i, format: 'clash' },
  { client: 'ClashX Meta', pattern: /clashx[.\- ]?meta/i, format: 'clash' },
  { client: 'FlClash', pattern: /flclash/i, format: 'clash' },
  { client: 'mihomo, Mihomo Party', pattern: /mihomo/i, format: 'clash' },
  { client: 'sing-box', pattern: /sing-box/i, format: 'sing-box' },
  { client: 'v2rayN, v2rayNG', pattern: /v2rayn/i, format: 'share-links' },
  { client: 'Shadowrocket', pattern: /shadowrocket/i, format: 'share-links' },
  { client: 'FoXray', pattern: /foxray/i, format: 'share-links' },
  { client: 'Streisand', pattern: /streisand/i, format: 'share-links' },
  { client: 'Happ', pattern: /^happ\//i, format: 'share-links' },
  { client: 'v2RayTun', pattern: /v2raytun/i, format: 'share-links' },
];

/** The rule a User-Agent matches, if any. */
export function matchUserAgent(userAgent: string | undefined): UserAgentRule | undefined {
  if (!userAgent) return undefined;
  return USER_AGENT_RULES.find((rule) => rule.pattern.test(userAgent));
}

/** The format for a User-Agent; anything the table does not know gets the share-link list. */
export function detectFormat(userAgent: string | undefined): FeedFormat {
  return matchUserAgent(userAgent)?.format ?? 'share-links';
}

const FLAGS: ReadonlyMap<string, FeedFormat> = new Map<string, FeedFormat>([
  ...(['clash', 'meta', 'mihomo', 'clashmeta', 'clash-meta', 'clash.meta', 'clash-verge', 'flclash'] as const).map(
    (flag) => [flag, 'clash'] as const,
  ),
  ...(['sing-box', 'singbox', 'sfa', 'sfi', 'sfm', 'sft', 'hiddify', 'karing'] as const).map(
    (flag) => [flag, 'sing-box'] as const,
  ),
  ...(
    ['base64', 'v2ray', 'v2rayn', 'v2rayng', 'shadowrocket', 'foxray', 'streisand', 'links', 'share-links'] as const
  ).map((flag) => [flag, 'share-links'] as const),
]);

/** The format a `?flag=` names; an unknown flag names none, and the User-Agent decides. */
export function flagFormat(flag: string | undefined): FeedFormat | undefined {
  if (!flag) return undefined;
  return FLAGS.get(flag.trim().toLowerCase());
}

/** `?flag=` first, then the User-Agent. */
export function chooseFormat(flag: string | undefined, userAgent: string | undefined): FeedFormat {
  return flagFormat(flag) ?? detectFormat(userAgent);
}

/**
 * The sing-box core version a User-Agent states: the `sing-box X.Y` it carries (SFA, SFI, SFM and SFT write it in
 * parentheses), otherwise the official clients' own `SFx/X.Y`, which follows the core's. None when it says neither.
 */
export function parseSingBoxVersion(userAgent: string | undefined): SingBoxVersion | undefined {
  if (!userAgent) return undefined;
  const match =
    /sing-box[/ ]v?(\d+)\.(\d+)/i.exec(userAgent) ?? /(?:^|[^A-Za-z0-9])SF[AIMT]\/v?(\d+)\.(\d+)/.exec(userAgent);
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]) };
}

/**
 * A person opening the link in a browser, who gets a page instead of raw data: no `?flag=`, a browser's User-Agent
 * (`Mozilla/`) that the client table does not know, and an `Accept` that names `text/html` (not just `*\/*`).
 * Requiring all three keeps away clients whose HTTP library sends a browser-like `Accept` (Java's default does).
 */
export function isBrowserRequest(request: {
  flag?: string | undefined;
  userAgent?: string | undefined;
  accept?: string | undefined;
}): boolean {
  if (flagFormat(request.flag)) return false;
  const userAgent = request.userAgent ?? '';
  if (!/^Mozilla\//.test(userAgent) || matchUserAgent(userAgent)) return false;
  return /(?:^|[\s,])text\/html(?:$|[\s;,])/i.test(request.accept ?? '');
}
