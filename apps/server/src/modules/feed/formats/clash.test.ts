import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { EMPTY_INPUT, FIXTURE_INPUT, FIXTURE_PROXIES } from '../__fixtures__/feed-input.js';
import { expectGolden } from '../__fixtures__/golden.js';
import type { FeedInput } from '../feed-format.js';
import { renderClash } from './clash.js';

/*
 * mihomo's proxy and group fields, written from wiki.metacubex.one/config/proxies (and /proxy-groups), with the types
 * mihomo decodes them into. Strict objects: a misspelt key would be silently ignored by mihomo, so it fails here.
 */
const Port = z.number().int().min(1).max(65535);
const Uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
const Fingerprint = z.enum(['chrome', 'firefox', 'safari', 'ios', 'android', 'edge', '360', 'qq', 'random']);
const Common = {
  name: z.string().min(1),
  server: z
    .string()
    .min(1)
    .regex(/^[^[\]]+$/),
  port: Port,
  udp: z.boolean(),
};
const Tls = {
  servername: z.string().min(1).optional(),
  'client-fingerprint': Fingerprint.optional(),
  alpn: z.array(z.string().min(1)).min(1).optional(),
  'skip-cert-verify': z.boolean().optional(),
  'reality-opts': z
    .strictObject({ 'public-key': z.string().min(43), 'short-id': z.string().regex(/^[0-9a-f]{0,16}$/) })
    .optional(),
};
const Transport = {
  network: z.enum(['tcp', 'ws', 'grpc', 'http', 'h2']),
  'ws-opts': z
    .strictObject({
      path: z.string().startsWith('/'),
      headers: z.record(z.string(), z.string()).optional(),
      'max-early-data': z.number().int().positive().optional(),
      'early-data-header-name': z.string().optional(),
      'v2ray-http-upgrade': z.boolean().optional(),
      'v2ray-http-upgrade-fast-open': z.boolean().optional(),
    })
    .optional(),
  'grpc-opts': z.strictObject({ 'grpc-service-name': z.string() }).optional(),
};
const ClashProxySchema = z.discriminatedUnion('type', [
  z.strictObject({
    ...Common,
    ...Tls,
    ...Transport,
    type: z.literal('vless'),
    uuid: Uuid,
    flow: z.literal('xtls-rprx-vision').optional(),
    tls: z.boolean(),
  }),
  z.strictObject({
    ...Common,
    ...Tls,
    ...Transport,
    type: z.literal('vmess'),
    uuid: Uuid,
    alterId: z.number().int().min(0),
    cipher: z.enum(['auto', 'none', 'zero', 'aes-128-gcm', 'chacha20-poly1305']),
    tls: z.boolean(),
  }),
  z.strictObject({
    ...Common,
    ...Transport,
    'client-fingerprint': Tls['client-fingerprint'],
    alpn: Tls.alpn,
    'skip-cert-verify': Tls['skip-cert-verify'],
    'reality-opts': Tls['reality-opts'],
    type: z.literal('trojan'),
    password: z.string().min(1),
    sni: z.string().min(1),
  }),
  z.strictObject({
    ...Common,
    type: z.literal('ss'),
    cipher: z.enum([
      'aes-128-gcm',
      'aes-192-gcm',
      'aes-256-gcm',
      'chacha20-ietf-poly1305',
      'xchacha20-ietf-poly1305',
      '2022-blake3-aes-128-gcm',
      '2022-blake3-aes-256-gcm',
      '2022-blake3-chacha20-poly1305',
    ]),
    password: z.string().min(1),
  }),
  z.strictObject({
    ...Common,
    type: z.literal('hysteria2'),
    password: z.string().min(1),
    obfs: z.literal('salamander').optional(),
    'obfs-password': z.string().min(1).optional(),
    sni: z.string().min(1),
    alpn: z.array(z.string()).min(1),
    'skip-cert-verify': z.boolean(),
  }),
  z.strictObject({
    ...Common,
    type: z.literal('tuic'),
    uuid: Uuid,
    password: z.string().min(1),
    'congestion-controller': z.enum(['cubic', 'new_reno', 'bbr']).optional(),
    'udp-relay-mode': z.enum(['native', 'quic']),
    sni: z.string().min(1),
    alpn: z.array(z.string()).min(1),
    'skip-cert-verify': z.boolean(),
  }),
]);
const GroupSchema = z.discriminatedUnion('type', [
  z.strictObject({ name: z.string().min(1), type: z.literal('select'), proxies: z.array(z.string()).min(1) }),
  z.strictObject({
    name: z.string().min(1),
    type: z.literal('url-test'),
    proxies: z.array(z.string()).min(1),
    url: z.url(),
    interval: z.number().int().positive(),
    tolerance: z.number().int().min(0),
  }),
]);
const ProfileSchema = z.strictObject({
  'mixed-port': Port,
  'allow-lan': z.boolean(),
  mode: z.enum(['rule', 'global', 'direct']),
  'log-level': z.enum(['silent', 'error', 'warning', 'info', 'debug']),
  proxies: z.array(ClashProxySchema),
  'proxy-groups': z.array(GroupSchema).min(1),
  rules: z
    .array(z.string().regex(/^(IP-CIDR,[0-9.]+\/\d+|IP-CIDR6,[0-9a-f:]+\/\d+),DIRECT,no-resolve$|^MATCH,/))
    .min(1),
});
type Profile = z.infer<typeof ProfileSchema>;

/** Parses as mihomo would, and checks that YAML 1.1 readers see exactly the same values (no `on`, `0123`, `1e3`…). */
function parseProfile(body: string): Profile {
  const core = parse(body) as unknown;
  expect(parse(body, { version: '1.1' })).toEqual(core);
  return ProfileSchema.parse(core);
}

/** Every group member names a node, a group or a built-in; names are unique; the rules' targets exist. */
function expectConsistent(profile: Profile): void {
  const proxyNames = profile.proxies.map((proxy) => proxy.name);
  const groupNames = profile['proxy-groups'].map((group) => group.name);
  const all = [...proxyNames, ...groupNames];
  expect(new Set(all).size).toBe(all.length);
  for (const builtIn of ['DIRECT', 'REJECT']) expect(all).not.toContain(builtIn);
  const known = new Set([...all, 'DIRECT', 'REJECT']);
  for (const group of profile['proxy-groups']) {
    expect(group.proxies.length).toBeGreaterThan(0);
    for (const member of group.proxies) expect(known).toContain(member);
  }
  for (const rule of profile.rules) {
    // As mihomo reads a rule: split on commas, each part trimmed; MATCH's target is the second part.
    const parts = rule.split(',').map((part) => part.trim());
    const target = parts[0] === 'MATCH' ? parts[1] : parts[2];
    if (parts[0] === 'MATCH') expect(parts).toHaveLength(2);
    expect(known).toContain(target);
  }
  expect(profile.rules.at(-1)?.startsWith('MATCH,')).toBe(true);
}

describe('renderClash', () => {
  const feed = renderClash(FIXTURE_INPUT);
  const profile = parseProfile(feed.body);

  it('is the golden mihomo profile, as text/yaml', () => {
    expect(feed.contentType).toBe('text/yaml; charset=utf-8');
    expectGolden(new URL('./__golden__/clash.yaml', import.meta.url), feed.body);
  });

  it('matches mihomo’s proxy fields and types, with consistent groups and rules', () => {
    expect(profile.proxies).toHaveLength(FIXTURE_PROXIES.length);
    expectConsistent(profile);
    expect(profile['proxy-groups'].map((group) => [group.name, group.type])).toEqual([
      ['Mutenet ✨', 'select'],
      ['Auto', 'url-test'],
    ]);
    expect(profile.rules.at(-1)).toBe('MATCH,Mutenet ✨');
    expect(profile.rules.filter((rule) => rule.startsWith('IP-CIDR'))).toHaveLength(8);
    expect(profile.rules.some((rule) => rule.startsWith('GEOIP'))).toBe(false);
  });

  it('carries every field of every node', () => {
    for (const [index, fixture] of FIXTURE_PROXIES.entries()) {
      const proxy = profile.proxies[index]!;
      expect(proxy.name).toBe(fixture.name);
      expect(proxy.server).toBe(fixture.host);
      expect(proxy.port).toBe(fixture.port);
      expect(proxy.udp).toBe(true);
      switch (proxy.type) {
        case 'vless':
        case 'vmess':
          expect(proxy.uuid).toBe(fixture.uuid);
          expect(proxy.tls).toBe(fixture.tls.mode !== 'none');
          if (proxy.tls) expect(proxy.servername).toBe(fixture.tls.sni ?? fixture.host);
          expect(proxy['client-fingerprint']).toBe(fixture.tls.fingerprint);
          break;
        case 'trojan':
          expect(proxy.password).toBe(fixture.password);
          expect(proxy.sni).toBe(fixture.tls.sni);
          expect(proxy['skip-cert-verify']).toBe(fixture.tls.allowInsecure === true);
          break;
        case 'ss':
          expect([proxy.cipher, proxy.password]).toEqual([fixture.cipher, fixture.password]);
          break;
        case 'hysteria2':
          expect([proxy.password, proxy.obfs, proxy['obfs-password'], proxy.sni]).toEqual([
            fixture.password,
            'salamander',
            fixture.obfsPassword,
            fixture.tls.sni,
          ]);
          break;
        case 'tuic':
          expect([proxy.uuid, proxy.password, proxy['congestion-controller'], proxy.alpn]).toEqual([
            fixture.uuid,
            fixture.password,
            'bbr',
            ['h3'],
          ]);
          break;
      }
    }
    const reality = profile.proxies[0]!;
    expect(reality).toMatchObject({
      flow: 'xtls-rprx-vision',
      network: 'tcp',
      'reality-opts': { 'public-key': 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw', 'short-id': '0123' },
    });
    expect(profile.proxies[1]).toMatchObject({
      network: 'ws',
      'ws-opts': {
        path: '/vless',
        headers: { Host: 'cdn.example.com' },
        'max-early-data': 2048,
        'early-data-header-name': 'Sec-WebSocket-Protocol',
      },
    });
    expect(profile.proxies[2]).toMatchObject({ network: 'grpc', 'grpc-opts': { 'grpc-service-name': 'grpc-svc' } });
    expect(profile.proxies[3]).toMatchObject({
      network: 'ws',
      'ws-opts': { path: '/up', 'v2ray-http-upgrade': true },
    });
  });

  it('writes every string double-quoted, so no reader takes one for another type', () => {
    const tricky: FeedInput = {
      ...FIXTURE_INPUT,
      title: 'yes',
      proxies: [
        {
          ...FIXTURE_PROXIES[0]!,
          name: 'on',
          tls: { ...FIXTURE_PROXIES[0]!.tls, realityShortId: '0b10' },
        },
        { ...FIXTURE_PROXIES[8]!, name: '1e3', password: '0x1F' },
        { ...FIXTURE_PROXIES[6]!, name: 'null', password: '12:30:00' },
      ],
    };
    const parsed = parseProfile(renderClash(tricky).body);
    expect(parsed.proxies.map((proxy) => proxy.name)).toEqual(['on', '1e3', 'null']);
    expect(parsed.proxies[0]).toMatchObject({ 'reality-opts': { 'short-id': '0b10' } });
    expect(parsed.proxies[1]).toMatchObject({ password: '0x1F' });
    expect(parsed.proxies[2]).toMatchObject({ password: '12:30:00' });
    expect(parsed['proxy-groups'][0]!.name).toBe('yes');
  });

  it('renames what would collide with a built-in or a group', () => {
    const colliding: FeedInput = {
      ...FIXTURE_INPUT,
      title: 'Auto',
      proxies: [
        { ...FIXTURE_PROXIES[8]!, name: 'DIRECT' },
        { ...FIXTURE_PROXIES[9]!, name: 'Auto' },
      ],
    };
    const parsed = parseProfile(renderClash(colliding).body);
    expectConsistent(parsed);
    expect(parsed.proxies.map((proxy) => proxy.name)).toEqual(['DIRECT (2)', 'Auto']);
    expect(parsed['proxy-groups'].map((group) => group.name)).toEqual(['Auto (2)', 'Auto (3)']);
  });

  it('keeps commas out of the group the MATCH rule names', () => {
    const parsed = parseProfile(renderClash({ ...FIXTURE_INPUT, title: ' Fast,  Cheap ,VPN ' }).body);
    expectConsistent(parsed);
    expect(parsed['proxy-groups'][0]!.name).toBe('Fast Cheap VPN');
    expect(parsed.rules.at(-1)).toBe('MATCH,Fast Cheap VPN');
  });

  it('stays a valid profile without nodes: one group, holding DIRECT', () => {
    const empty = parseProfile(renderClash(EMPTY_INPUT).body);
    expect(empty.proxies).toEqual([]);
    expect(empty['proxy-groups']).toEqual([{ name: 'Mutenet ✨', type: 'select', proxies: ['DIRECT'] }]);
    expectConsistent(empty);
  });
});
