import { describe, expect, it } from 'vitest';
import type { FeedFormat } from './feed-format.js';
import {
  chooseFormat,
  detectFormat,
  flagFormat,
  isBrowserRequest,
  matchUserAgent,
  parseSingBoxVersion,
  USER_AGENT_RULES,
} from './user-agent.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const CHROME_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';

/** Real User-Agents (and the family names), with the format each must get. */
const USER_AGENTS: [string, FeedFormat][] = [
  // mihomo family
  ['ClashMetaForAndroid/2.11.5.Meta', 'clash'],
  ['clash-verge/v2.2.3', 'clash'],
  ['clash-verge/v1.3.8', 'clash'],
  ['FlClash/v0.8.80 clash-verge Platform/android', 'clash'],
  ['FlClash/v0.8.80 Platform/windows', 'clash'],
  ['mihomo/1.19.0', 'clash'],
  ['mihomo.party/v1.7.2 (clash.meta)', 'clash'],
  ['clash.meta', 'clash'],
  ['Clash.Meta/v1.18.10', 'clash'],
  ['ClashX Meta/v1.3.7 (com.metacubex.ClashX.meta; build:1.3.7; macOS 14.5.0)', 'clash'],
  ['NekoBox/Android 1.3.9 (Prefer ClashMeta Format)', 'clash'],
  // sing-box family
  ['SFA/1.11.4 (327; sing-box 1.11.4; language en_US)', 'sing-box'],
  ['SFI/1.10.0 (Build 2; sing-box 1.10.0; language zh_CN)', 'sing-box'],
  ['SFM/1.12.1 (Build 5; sing-box 1.12.1; language en)', 'sing-box'],
  ['SFT/1.9.3 (Build 1; sing-box 1.9.3; language en)', 'sing-box'],
  ['sing-box 1.10.1', 'sing-box'],
  ['sing-box/1.12.0', 'sing-box'],
  ['HiddifyNext/2.5.7 (android) like ClashMeta v2ray sing-box', 'sing-box'],
  ['Hiddify/2.0.5 (windows) like ClashMeta v2ray sing-box', 'sing-box'],
  ['karing/1.1.2.606 android', 'sing-box'],
  ['Karing/1.0.31 (iOS)', 'sing-box'],
  // everything else: share links
  ['v2rayNG/1.9.30', 'share-links'],
  ['v2rayN/7.10.0', 'share-links'],
  ['Shadowrocket/2070 CFNetwork/1496.0.7 Darwin/23.5.0', 'share-links'],
  ['FoXray/3.2.1 (iPhone; iOS 17.5; Scale/3.00)', 'share-links'],
  ['Streisand/1.6.13 CFNetwork/1496.0.7 Darwin/23.5.0', 'share-links'],
  ['Happ/2.5.1/ios', 'share-links'],
  ['v2RayTun/5.13.38 (Android)', 'share-links'],
  ['Stash/2.4.0 Clash/1.9.0', 'share-links'],
  ['curl/8.7.1', 'share-links'],
  [CHROME, 'share-links'],
  ['', 'share-links'],
];

describe('detectFormat', () => {
  it.each(USER_AGENTS)('%s → %s', (userAgent, format) => {
    expect(detectFormat(userAgent)).toBe(format);
  });

  it('gives share links when there is no User-Agent', () => {
    expect(detectFormat(undefined)).toBe('share-links');
  });

  it('has a real User-Agent above for every rule of the table', () => {
    for (const rule of USER_AGENT_RULES) {
      const sample = USER_AGENTS.find(([userAgent]) => matchUserAgent(userAgent) === rule);
      expect(sample, rule.client).toBeDefined();
    }
  });

  it('does not take a word that merely contains SFA or SFI for the sing-box apps', () => {
    expect(detectFormat('NASFA/1.0')).toBe('share-links');
    expect(detectFormat('sfa/1.0')).toBe('share-links');
  });
});

describe('flagFormat and chooseFormat', () => {
  it.each([
    ['clash', 'clash'],
    ['meta', 'clash'],
    ['mihomo', 'clash'],
    ['clashmeta', 'clash'],
    ['Clash.Meta', 'clash'],
    ['sing-box', 'sing-box'],
    ['singbox', 'sing-box'],
    ['sfa', 'sing-box'],
    ['SFI', 'sing-box'],
    ['hiddify', 'sing-box'],
    ['base64', 'share-links'],
    ['v2ray', 'share-links'],
    ['v2rayn', 'share-links'],
    ['v2rayNG', 'share-links'],
    ['shadowrocket', 'share-links'],
    [' clash ', 'clash'],
  ] as const)('?flag=%s → %s', (flag, format) => {
    expect(flagFormat(flag)).toBe(format);
  });

  it.each(['', 'surge', 'quantumult', 'constructor', '__proto__', 'toString'])('?flag=%s names no format', (flag) => {
    expect(flagFormat(flag)).toBeUndefined();
  });

  it('takes the flag first, then the User-Agent', () => {
    const sfa = 'SFA/1.11.4 (327; sing-box 1.11.4; language en_US)';
    expect(chooseFormat('clash', sfa)).toBe('clash');
    expect(chooseFormat('v2rayng', 'clash-verge/v2.2.3')).toBe('share-links');
    expect(chooseFormat('unknown', sfa)).toBe('sing-box');
    expect(chooseFormat(undefined, 'clash-verge/v2.2.3')).toBe('clash');
    expect(chooseFormat(undefined, undefined)).toBe('share-links');
  });
});

describe('parseSingBoxVersion', () => {
  it.each([
    ['SFA/1.11.4 (327; sing-box 1.11.4; language en_US)', { major: 1, minor: 11 }],
    ['SFI/1.10.0 (Build 2; sing-box 1.10.0; language zh_CN)', { major: 1, minor: 10 }],
    ['SFM/1.12.0-beta.3 (Build 1; sing-box 1.12.0-beta.3; language en)', { major: 1, minor: 12 }],
    ['sing-box 1.10.1', { major: 1, minor: 10 }],
    ['sing-box/1.13.0', { major: 1, minor: 13 }],
    ['SFA/1.9.7', { major: 1, minor: 9 }],
    ['Hiddify/2.5.7 (android) sing-box 1.8.14', { major: 1, minor: 8 }],
  ] as const)('%s → %o', (userAgent, version) => {
    expect(parseSingBoxVersion(userAgent)).toEqual(version);
  });

  it.each([
    'HiddifyNext/2.5.7 (android) like ClashMeta v2ray sing-box',
    'karing/1.1.2.606 android',
    'clash-verge/v2.2.3',
    '',
  ])('%s states no version', (userAgent) => {
    expect(parseSingBoxVersion(userAgent)).toBeUndefined();
  });

  it('states none without a User-Agent', () => {
    expect(parseSingBoxVersion(undefined)).toBeUndefined();
  });
});

describe('isBrowserRequest', () => {
  it('is a browser asking for HTML without a flag', () => {
    expect(isBrowserRequest({ userAgent: CHROME, accept: CHROME_ACCEPT })).toBe(true);
    expect(isBrowserRequest({ userAgent: CHROME, accept: CHROME_ACCEPT, flag: 'nonsense' })).toBe(true);
  });

  it('is not when a flag names a format, so a browser can still download one', () => {
    expect(isBrowserRequest({ userAgent: CHROME, accept: CHROME_ACCEPT, flag: 'clash' })).toBe(false);
  });

  it('is not a client, whatever its Accept says', () => {
    const javaAccept = 'text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2';
    expect(isBrowserRequest({ userAgent: 'Java/17.0.2', accept: javaAccept })).toBe(false);
    expect(isBrowserRequest({ userAgent: 'v2rayNG/1.9.30', accept: javaAccept })).toBe(false);
    expect(isBrowserRequest({ userAgent: 'curl/8.7.1', accept: '*/*' })).toBe(false);
    expect(isBrowserRequest({ userAgent: `${CHROME} clash-verge/v2.2.3`, accept: CHROME_ACCEPT })).toBe(false);
  });

  it('is not a browser that does not ask for HTML', () => {
    expect(isBrowserRequest({ userAgent: CHROME, accept: '*/*' })).toBe(false);
    expect(isBrowserRequest({ userAgent: CHROME, accept: 'application/xhtml+xml' })).toBe(false);
    expect(isBrowserRequest({ userAgent: CHROME })).toBe(false);
    expect(isBrowserRequest({})).toBe(false);
  });
});
