import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EMPTY_INPUT, FIXTURE_INPUT, FIXTURE_PROXIES } from '../__fixtures__/feed-input.js';
import { expectGolden } from '../__fixtures__/golden.js';
import type { FeedInput, SingBoxVersion } from '../feed-format.js';
import { renderSingBox, singBoxFeatures } from './sing-box.js';

/*
 * sing-box's configuration, written from sing-box.sagernet.org/configuration (outbound/*, shared/tls,
 * shared/v2ray-transport, dns/server, route/rule, route/rule_action, inbound/tun) with the JSON types sing-box
 * decodes. sing-box rejects unknown fields, so every object is strict. One schema for each side of each change.
 */
const Tag = z.string().min(1);
const Port = z.number().int().min(1).max(65535);
const Uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
const Server = {
  tag: Tag,
  server: z
    .string()
    .min(1)
    .regex(/^[^[\]]+$/),
  server_port: Port,
};

const TlsSchema = z.strictObject({
  enabled: z.boolean(),
  server_name: z.string().min(1),
  insecure: z.boolean().optional(),
  alpn: z.array(z.string().min(1)).min(1).optional(),
  utls: z
    .strictObject({
      enabled: z.boolean(),
      fingerprint: z.enum([
        'chrome',
        'firefox',
        'edge',
        'safari',
        '360',
        'qq',
        'ios',
        'android',
        'random',
        'randomized',
      ]),
    })
    .optional(),
  reality: z
    .strictObject({
      enabled: z.boolean(),
      public_key: z.string().min(43),
      short_id: z.string().regex(/^[0-9a-f]{0,16}$/),
    })
    .optional(),
});
const TransportSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('ws'),
    path: z.string().startsWith('/'),
    headers: z.record(z.string(), z.string()).optional(),
    max_early_data: z.number().int().positive().optional(),
    early_data_header_name: z.string().optional(),
  }),
  z.strictObject({ type: z.literal('grpc'), service_name: z.string() }),
  z.strictObject({
    type: z.literal('httpupgrade'),
    host: z.string().optional(),
    path: z.string().startsWith('/'),
    headers: z.record(z.string(), z.string()).optional(),
  }),
]);
const ProxyOutbounds = [
  z.strictObject({
    type: z.literal('vless'),
    ...Server,
    uuid: Uuid,
    flow: z.literal('xtls-rprx-vision').optional(),
    tls: TlsSchema.optional(),
    transport: TransportSchema.optional(),
  }),
  z.strictObject({
    type: z.literal('vmess'),
    ...Server,
    uuid: Uuid,
    security: z.enum(['auto', 'none', 'zero', 'aes-128-gcm', 'chacha20-poly1305', 'aes-128-ctr']),
    alter_id: z.number().int().min(0),
    tls: TlsSchema.optional(),
    transport: TransportSchema.optional(),
  }),
  z.strictObject({
    type: z.literal('trojan'),
    ...Server,
    password: z.string().min(1),
    tls: TlsSchema.optional(),
    transport: TransportSchema.optional(),
  }),
  z.strictObject({
    type: z.literal('shadowsocks'),
    ...Server,
    method: z.enum([
      '2022-blake3-aes-128-gcm',
      '2022-blake3-aes-256-gcm',
      '2022-blake3-chacha20-poly1305',
      'aes-128-gcm',
      'aes-192-gcm',
      'aes-256-gcm',
      'chacha20-ietf-poly1305',
      'xchacha20-ietf-poly1305',
    ]),
    password: z.string().min(1),
  }),
  z.strictObject({
    type: z.literal('hysteria2'),
    ...Server,
    password: z.string().min(1),
    obfs: z.strictObject({ type: z.literal('salamander'), password: z.string().min(1) }).optional(),
    tls: TlsSchema,
  }),
  z.strictObject({
    type: z.literal('tuic'),
    ...Server,
    uuid: Uuid,
    password: z.string().min(1),
    congestion_control: z.enum(['cubic', 'new_reno', 'bbr']).optional(),
    udp_relay_mode: z.enum(['native', 'quic']),
    tls: TlsSchema,
  }),
] as const;
const GroupOutbounds = [
  z.strictObject({
    type: z.literal('selector'),
    tag: Tag,
    outbounds: z.array(Tag).min(1),
    default: Tag.optional(),
  }),
  z.strictObject({
    type: z.literal('urltest'),
    tag: Tag,
    outbounds: z.array(Tag).min(1),
    url: z.url(),
    interval: z.string().regex(/^\d+[smh]$/),
    tolerance: z.number().int().min(0),
  }),
  z.strictObject({ type: z.literal('direct'), tag: Tag }),
] as const;
/** Deprecated in 1.11, removed in 1.13. */
const LegacySpecialOutbound = z.strictObject({ type: z.enum(['dns', 'block']), tag: Tag });

/** Legacy DNS servers (`address`): removed in 1.14. Typed servers: since 1.12. */
const LegacyDns = z.strictObject({
  servers: z.array(z.strictObject({ tag: Tag, address: z.string().min(1), detour: Tag.optional() })).min(1),
  rules: z.array(z.strictObject({ outbound: z.union([z.string(), z.array(z.string())]), server: Tag })),
  final: Tag,
});
const TypedDns = z.strictObject({
  servers: z
    .array(
      z.discriminatedUnion('type', [
        z.strictObject({
          type: z.literal('https'),
          tag: Tag,
          server: z.string().min(1),
          server_port: Port.optional(),
          path: z.string().optional(),
          detour: Tag.optional(),
        }),
        z.strictObject({ type: z.literal('local'), tag: Tag }),
      ]),
    )
    .min(1),
  final: Tag,
});

function configSchema(version: SingBoxVersion | undefined) {
  const features = singBoxFeatures(version);
  const outbound = features.ruleActions
    ? z.discriminatedUnion('type', [...ProxyOutbounds, ...GroupOutbounds])
    : z.discriminatedUnion('type', [...ProxyOutbounds, ...GroupOutbounds, LegacySpecialOutbound]);
  const tun = z.strictObject({
    type: z.literal('tun'),
    tag: Tag,
    ...(features.tunAddress
      ? { address: z.array(z.string().regex(/^[0-9a-f.:]+\/\d+$/)).min(1) }
      : { inet4_address: z.string(), inet6_address: z.string() }),
    auto_route: z.boolean(),
    strict_route: z.boolean(),
    ...(features.ruleActions ? {} : { sniff: z.boolean() }),
  });
  const rule = features.ruleActions
    ? z.union([
        z.strictObject({ action: z.literal('sniff') }),
        z.strictObject({ protocol: z.literal('dns'), action: z.literal('hijack-dns') }),
        z.strictObject({ ip_is_private: z.boolean(), outbound: Tag }),
      ])
    : z.union([
        z.strictObject({ protocol: z.literal('dns'), outbound: Tag }),
        z.strictObject({ ip_is_private: z.boolean(), outbound: Tag }),
      ]);
  return z.strictObject({
    log: z.strictObject({
      level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'panic']),
      timestamp: z.boolean(),
    }),
    dns: features.typedDnsServers ? TypedDns : LegacyDns,
    inbounds: z.array(tun).length(1),
    outbounds: z.array(outbound).min(2),
    route: z.strictObject({
      rules: z.array(rule).min(1),
      final: Tag,
      auto_detect_interface: z.boolean(),
      ...(features.typedDnsServers ? { default_domain_resolver: Tag } : {}),
    }),
  });
}

type Config = {
  dns: { servers: { tag: string; type?: string; detour?: string }[]; rules?: { server: string }[]; final: string };
  outbounds: { type: string; tag: string; outbounds?: string[]; default?: string }[];
  route: { rules: Record<string, unknown>[]; final: string; default_domain_resolver?: string };
};

function parseConfig(body: string, version: SingBoxVersion | undefined): Config {
  return configSchema(version).parse(JSON.parse(body)) as Config;
}

/** Every tag a field names exists, and tags are unique; a typed DNS server never detours to a bare direct outbound. */
function expectConsistent(config: Config): void {
  const tags = config.outbounds.map((outbound) => outbound.tag);
  expect(new Set(tags).size).toBe(tags.length);
  const known = new Set(tags);
  for (const outbound of config.outbounds) {
    for (const member of outbound.outbounds ?? []) expect(known).toContain(member);
    if (outbound.default) expect(outbound.outbounds).toContain(outbound.default);
  }
  expect(known).toContain(config.route.final);
  for (const rule of config.route.rules) if (typeof rule.outbound === 'string') expect(known).toContain(rule.outbound);
  const dnsTags = new Set(config.dns.servers.map((server) => server.tag));
  expect(dnsTags.size).toBe(config.dns.servers.length);
  expect(dnsTags).toContain(config.dns.final);
  for (const rule of config.dns.rules ?? []) expect(dnsTags).toContain(rule.server);
  if (config.route.default_domain_resolver) expect(dnsTags).toContain(config.route.default_domain_resolver);
  for (const server of config.dns.servers) {
    if (!server.detour) continue;
    expect(known).toContain(server.detour);
    const target = config.outbounds.find((outbound) => outbound.tag === server.detour);
    if (server.type) expect(target?.type).not.toBe('direct');
  }
}

function keysDeep(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysDeep);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => [key, ...keysDeep(inner)]);
  }
  return [];
}

const golden = (name: string) => new URL(`./__golden__/${name}`, import.meta.url);

describe('renderSingBox', () => {
  it('is the golden configuration for current clients and for each schema change', () => {
    const current = renderSingBox(FIXTURE_INPUT);
    expect(current.contentType).toBe('application/json; charset=utf-8');
    expectGolden(golden('sing-box.json'), current.body);
    expectGolden(golden('sing-box-1.11.json'), renderSingBox(FIXTURE_INPUT, { major: 1, minor: 11 }).body);
    expectGolden(golden('sing-box-1.9.json'), renderSingBox(FIXTURE_INPUT, { major: 1, minor: 9 }).body);
  });

  it.each([
    ['unknown', undefined],
    ['1.13', { major: 1, minor: 13 }],
    ['1.12', { major: 1, minor: 12 }],
    ['1.11', { major: 1, minor: 11 }],
    ['1.10', { major: 1, minor: 10 }],
    ['1.9', { major: 1, minor: 9 }],
    ['1.8', { major: 1, minor: 8 }],
  ] as const)('matches the documented schema and stays consistent for a %s client', (_, version) => {
    const config = parseConfig(renderSingBox(FIXTURE_INPUT, version).body, version);
    expectConsistent(config);
    const empty = parseConfig(renderSingBox(EMPTY_INPUT, version).body, version);
    expectConsistent(empty);
  });

  it('writes the old forms below 1.11: no rule action, sniffing on the inbound, DNS through the dns outbound', () => {
    for (const minor of [8, 9, 10]) {
      const config = JSON.parse(renderSingBox(FIXTURE_INPUT, { major: 1, minor }).body);
      expect(keysDeep(config.route)).not.toContain('action');
      expect(config.outbounds).toContainEqual({ type: 'dns', tag: 'dns-out' });
      expect(config.route.rules).toContainEqual({ protocol: 'dns', outbound: 'dns-out' });
      expect(config.inbounds[0].sniff).toBe(true);
      expect(config.dns.servers.every((server: Record<string, unknown>) => 'address' in server)).toBe(true);
    }
    expect(JSON.parse(renderSingBox(FIXTURE_INPUT, { major: 1, minor: 9 }).body).inbounds[0]).toMatchObject({
      inet4_address: '172.19.0.1/30',
    });
    expect(JSON.parse(renderSingBox(FIXTURE_INPUT, { major: 1, minor: 10 }).body).inbounds[0]).toMatchObject({
      address: ['172.19.0.1/30', 'fdfe:dcba:9876::1/126'],
    });
  });

  it('writes rule actions from 1.11 and typed DNS servers from 1.12, with no legacy special outbound', () => {
    for (const version of [{ major: 1, minor: 11 }, { major: 1, minor: 12 }, { major: 1, minor: 13 }, undefined]) {
      const config = JSON.parse(renderSingBox(FIXTURE_INPUT, version).body);
      const types = config.outbounds.map((outbound: { type: string }) => outbound.type);
      expect(types).not.toContain('dns');
      expect(types).not.toContain('block');
      expect(config.route.rules.slice(0, 2)).toEqual([{ action: 'sniff' }, { protocol: 'dns', action: 'hijack-dns' }]);
      expect(keysDeep(config.inbounds)).not.toContain('sniff');
    }
    const v11 = JSON.parse(renderSingBox(FIXTURE_INPUT, { major: 1, minor: 11 }).body);
    expect(v11.dns.servers[0]).toEqual({
      tag: 'dns-remote',
      address: 'https://1.1.1.1/dns-query',
      detour: 'Mutenet ✨',
    });
    const v12 = JSON.parse(renderSingBox(FIXTURE_INPUT, { major: 1, minor: 12 }).body);
    expect(v12.dns.servers).toEqual([
      { type: 'https', tag: 'dns-remote', server: '1.1.1.1', detour: 'Mutenet ✨' },
      { type: 'local', tag: 'dns-local' },
    ]);
    expect(v12.route.default_domain_resolver).toBe('dns-local');
    expect(renderSingBox(FIXTURE_INPUT, { major: 2, minor: 0 }).body).toBe(renderSingBox(FIXTURE_INPUT).body);
  });

  it('carries every field of every node, in sing-box’s names and types', () => {
    const config = JSON.parse(renderSingBox(FIXTURE_INPUT).body);
    const nodes = config.outbounds.slice(2, 2 + FIXTURE_PROXIES.length);
    for (const [index, fixture] of FIXTURE_PROXIES.entries()) {
      const node = nodes[index];
      expect(node.tag).toBe(fixture.name);
      expect(node.server).toBe(fixture.host);
      expect(node.server_port).toBe(fixture.port);
      if (node.uuid !== undefined) expect(node.uuid).toBe(fixture.uuid);
      if (node.password !== undefined) expect(node.password).toBe(fixture.password);
      if (fixture.tls.mode !== 'none' || node.type === 'hysteria2' || node.type === 'tuic') {
        expect(node.tls.enabled).toBe(true);
        expect(node.tls.server_name).toBe(fixture.tls.sni ?? fixture.host);
      } else {
        expect(node.tls).toBeUndefined();
      }
    }
    expect(nodes[0]).toMatchObject({
      type: 'vless',
      flow: 'xtls-rprx-vision',
      tls: {
        utls: { enabled: true, fingerprint: 'chrome' },
        reality: { enabled: true, public_key: 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw', short_id: '0123' },
      },
    });
    expect(nodes[0].transport).toBeUndefined();
    expect(nodes[1].transport).toEqual({
      type: 'ws',
      path: '/vless',
      headers: { Host: 'cdn.example.com' },
      max_early_data: 2048,
      early_data_header_name: 'Sec-WebSocket-Protocol',
    });
    expect(nodes[2].transport).toEqual({ type: 'grpc', service_name: 'grpc-svc' });
    expect(nodes[3].transport).toEqual({ type: 'httpupgrade', host: 'fr.example.com', path: '/up' });
    expect(nodes[4]).toMatchObject({ type: 'vmess', security: 'auto', alter_id: 0 });
    expect(nodes[6].tls.insecure).toBe(true);
    expect(nodes[9]).toMatchObject({ method: '2022-blake3-aes-128-gcm', password: FIXTURE_PROXIES[9]!.password });
    expect(nodes[10]).toMatchObject({ obfs: { type: 'salamander', password: 'obfs-secret' }, tls: { alpn: ['h3'] } });
    expect(nodes[10].tls.utls).toBeUndefined();
    expect(nodes[11]).toMatchObject({ congestion_control: 'bbr', udp_relay_mode: 'native' });
  });

  it('keeps the selector valid without nodes: direct is its member, and no urltest is written', () => {
    const config = parseConfig(renderSingBox(EMPTY_INPUT).body, undefined);
    expect(config.outbounds).toEqual([
      { type: 'selector', tag: 'Mutenet ✨', outbounds: ['direct'] },
      { type: 'direct', tag: 'direct' },
    ]);
  });

  it('renames tags that would collide', () => {
    const colliding: FeedInput = {
      ...FIXTURE_INPUT,
      title: 'direct',
      proxies: [
        { ...FIXTURE_PROXIES[8]!, name: 'direct' },
        { ...FIXTURE_PROXIES[9]!, name: 'Auto' },
      ],
    };
    const config = parseConfig(renderSingBox(colliding).body, undefined);
    expectConsistent(config);
    expect(config.outbounds.map((outbound) => outbound.tag)).toEqual([
      'direct (3)',
      'Auto (2)',
      'direct (2)',
      'Auto',
      'direct',
    ]);
  });
});
